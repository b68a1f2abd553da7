#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv6 address, as sixteen bytes in network order.
public struct IPv6Address: Sendable, Hashable, CustomStringConvertible {
    /// The first eight bytes.
    public let high: UInt64
    /// The last eight bytes.
    public let low: UInt64

    /// The address of `bytes` (exactly 16), nil otherwise.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            if index < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
        }
        self.high = high
        self.low = low
    }

    /// The address in RFC 4291 text (`fd00::1`, `::ffff:10.0.0.1`, any case); nil for anything
    /// else, a zone (`%eth0`) included.
    public init?(_ text: String) {
        guard text.utf8.count <= 45, text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0 }) else { return nil }
        var bytes = [UInt8](repeating: 0, count: 16)
        guard inet_pton(AF_INET6, text, &bytes) == 1 else { return nil }
        self.init(bytes: bytes)
    }

    /// The sixteen bytes, first to last.
    public var bytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64($0))) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64($0))) }
    }

    /// The eight 16-bit groups.
    var groups: [UInt16] {
        let bytes = self.bytes
        return (0..<8).map { UInt16(bytes[2 * $0]) << 8 | UInt16(bytes[2 * $0 + 1]) }
    }

    /// Whether the address is link-local (`fe80::/10`).
    public var isLinkLocal: Bool { high >> 54 == 0x3FA }

    /// Text as RFC 5952 writes it: lower-case hex groups without leading zeros, the longest run
    /// of two or more zero groups (the first one on a tie) as `::`.
    public var description: String {
        let groups = self.groups
        var best: Range<Int>?
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else { index += 1; continue }
            var end = index
            while end < 8, groups[end] == 0 { end += 1 }
            if end - index >= 2, end - index > (best?.count ?? 0) { best = index..<end }
            index = end
        }
        let hex = { (range: Range<Int>) in range.map { String(groups[$0], radix: 16) }.joined(separator: ":") }
        guard let best else { return hex(0..<8) }
        return hex(0..<best.lowerBound) + "::" + hex(best.upperBound..<8)
    }
}
