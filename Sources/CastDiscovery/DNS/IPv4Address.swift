/// An IPv4 address, as four bytes in network order.
public struct IPv4Address: Sendable, Hashable, CustomStringConvertible {
    /// The address as a number (the first byte in the top bits).
    public let value: UInt32

    /// The address `a.b.c.d`.
    public init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        value = UInt32(a) << 24 | UInt32(b) << 16 | UInt32(c) << 8 | UInt32(d)
    }

    /// The address with this value.
    public init(value: UInt32) { self.value = value }

    /// The address in dotted-decimal text; nil unless it is four decimal numbers 0-255.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.utf8.count), part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let byte = UInt8(part)
            else { return nil }
            value = value << 8 | UInt32(byte)
        }
        self.value = value
    }

    /// The four bytes, first to last.
    public var bytes: [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    /// Dotted-decimal text: `10.213.1.1`.
    public var description: String { bytes.map(String.init).joined(separator: ".") }
}
