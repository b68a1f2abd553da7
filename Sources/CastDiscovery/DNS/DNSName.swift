/// A domain name as DNS carries it: a sequence of labels, each 1 to 63 bytes of any value (a dot
/// or a backslash inside a label is data, not a separator), at most 255 bytes on the wire.
///
/// Kept in uncompressed wire form (each label's length byte, then its bytes; the root's zero
/// byte left out), so decoding a name costs one allocation. Two names are equal when their
/// labels are, with ASCII letters compared case-insensitively, as in DNS.
public struct DNSName: Sendable, CustomStringConvertible {
    /// The most bytes a name takes on the wire, the root's zero byte included.
    public static let maximumWireLength = 255
    /// The most bytes a label holds.
    public static let maximumLabelLength = 63

    /// The labels in uncompressed wire form, without the root's zero byte.
    public let wire: [UInt8]

    /// The root name (no labels).
    public static let root = DNSName(validatedWire: [])

    /// A name of `labels`.
    ///
    /// - Throws: ``DNSNameError`` for an empty label, a label over 63 bytes, or a name over 255
    ///   bytes on the wire.
    public init(labels: [[UInt8]]) throws(DNSNameError) {
        var wire: [UInt8] = []
        wire.reserveCapacity(labels.reduce(0) { $0 + $1.count + 1 })
        for (index, label) in labels.enumerated() {
            guard !label.isEmpty else { throw .emptyLabel(index: index) }
            guard label.count <= Self.maximumLabelLength else { throw .labelTooLong(index: index, length: label.count) }
            wire.append(UInt8(label.count))
            wire.append(contentsOf: label)
        }
        guard wire.count + 1 <= Self.maximumWireLength else { throw .nameTooLong(length: wire.count + 1) }
        self.wire = wire
    }

    /// A name read from its escaped presentation form (`Living\032Room._googlecast._tcp.local.`,
    /// avahi's escaping; a trailing dot is optional).
    public init(parsing text: String) throws(DNSNameError) {
        let labels: [[UInt8]]
        do throws(DNSSDNameError) {
            labels = try DNSSDName.splitLabels(text)
        } catch {
            throw .unreadable(error)
        }
        try self.init(labels: labels)
    }

    /// A name from wire bytes already known to be valid (the decoder's).
    init(validatedWire: [UInt8]) {
        wire = validatedWire
    }

    /// The labels, in order.
    public var labels: [[UInt8]] {
        var labels: [[UInt8]] = []
        var index = 0
        while index < wire.count {
            let length = Int(wire[index])
            labels.append(Array(wire[(index + 1)..<(index + 1 + length)]))
            index += 1 + length
        }
        return labels
    }

    /// The number of labels.
    public var labelCount: Int {
        var count = 0
        var index = 0
        while index < wire.count {
            count += 1
            index += 1 + Int(wire[index])
        }
        return count
    }

    /// The bytes the name takes on the wire uncompressed, the root's zero byte included.
    public var wireLength: Int { wire.count + 1 }

    /// The name without its first label; nil for the root.
    public var parent: DNSName? {
        guard let first = wire.first else { return nil }
        return DNSName(validatedWire: Array(wire[(Int(first) + 1)...]))
    }

    /// Whether the name ends with the labels of `suffix` (case-insensitively), or is it.
    public func hasSuffix(_ suffix: DNSName) -> Bool {
        guard suffix.wire.count <= wire.count else { return false }
        var index = 0
        while wire.count - index > suffix.wire.count {
            index += 1 + Int(wire[index])
        }
        return wire.count - index == suffix.wire.count
            && DNSSDBytes.asciiCaseInsensitiveEqual(wire[index...], suffix.wire)
    }

    /// The escaped presentation form with a trailing dot (`_googlecast._tcp.local.`); the root
    /// is `.`.
    public var description: String {
        wire.isEmpty ? "." : DNSSDName.join(labels: labels) + "."
    }
}

extension DNSName: Hashable {
    /// Whether two names have the same labels, ASCII letters compared case-insensitively.
    public static func == (lhs: DNSName, rhs: DNSName) -> Bool {
        // Length bytes are at most 63, below every letter: lowering them changes nothing.
        guard lhs.wire.count == rhs.wire.count else { return false }
        return lhs.wire.withUnsafeBufferPointer { a in
            rhs.wire.withUnsafeBufferPointer { b in
                for index in 0..<a.count where a[index] != b[index] {
                    if DNSSDBytes.asciiLowercased(a[index]) != DNSSDBytes.asciiLowercased(b[index]) { return false }
                }
                return true
            }
        }
    }

    /// Hashes the case-folded labels, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        var words = DNSSDBytes.LowercasedWords()
        for byte in wire { words.append(byte, into: &hasher) }
        words.finish(into: &hasher)
    }
}

/// A name that breaks DNS's rules.
public enum DNSNameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A label of zero bytes (only the root may be empty).
    case emptyLabel(index: Int)
    /// A label over 63 bytes.
    case labelTooLong(index: Int, length: Int)
    /// A name over 255 bytes on the wire.
    case nameTooLong(length: Int)
    /// The presentation form could not be read.
    case unreadable(DNSSDNameError)

    public var description: String {
        switch self {
        case .emptyLabel(let index): "label \(index) is empty"
        case .labelTooLong(let index, let length): "label \(index) is \(length) bytes long; the maximum is 63"
        case .nameTooLong(let length): "the name is \(length) bytes long on the wire; the maximum is 255"
        case .unreadable(let error): "\(error)"
        }
    }
}
