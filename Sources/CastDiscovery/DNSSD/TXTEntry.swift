/// One string of a DNS-SD TXT record (RFC 6763 section 6), kept exactly as on the wire.
///
/// The key is everything before the first `=`; the value is everything after it. A string with no
/// `=` is a boolean attribute.
public struct TXTEntry: Sendable, Hashable {
    /// The string exactly as on the wire, without its length byte.
    public let bytes: [UInt8]

    /// Creates an entry from the raw bytes of one TXT string.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Creates an entry from text such as `"key=value"` or `"flag"`, encoded as UTF-8.
    public init(_ string: String) {
        self.bytes = Array(string.utf8)
    }

    /// Creates an entry from a key and an optional value; a `nil` value makes a boolean attribute.
    public init(key: String, value: [UInt8]?) {
        var bytes = Array(key.utf8)
        if let value {
            bytes.append(DNSSDBytes.equals)
            bytes.append(contentsOf: value)
        }
        self.bytes = bytes
    }

    /// The position of the first `=`, if any.
    private var separatorIndex: Int? {
        bytes.firstIndex(of: DNSSDBytes.equals)
    }

    /// The bytes before the first `=` (all bytes when there is none).
    public var key: [UInt8] {
        guard let separatorIndex else { return bytes }
        return Array(bytes[..<separatorIndex])
    }

    /// The bytes after the first `=`; `nil` for a boolean attribute (no `=`).
    public var value: [UInt8]? {
        guard let separatorIndex else { return nil }
        return Array(bytes[(separatorIndex + 1)...])
    }

    /// The key decoded as UTF-8, with invalid bytes replaced by U+FFFD.
    public var keyString: String {
        DNSSDBytes.decode(key)
    }

    /// The value of this entry: `.flag` for a boolean attribute, otherwise its bytes.
    public var txtValue: TXTValue {
        value.map(TXTValue.bytes) ?? .flag
    }

    /// Whether the key of this entry equals `key`, comparing ASCII letters case-insensitively.
    /// An empty key never matches.
    func hasKey<C: Collection<UInt8>>(_ key: C) -> Bool {
        guard !key.isEmpty else { return false }
        let ownKey = bytes.prefix { $0 != DNSSDBytes.equals }
        return DNSSDBytes.asciiCaseInsensitiveEqual(ownKey, key)
    }
}

extension TXTEntry: CustomStringConvertible {
    /// The entry as a quoted string, with non-printable bytes written as `\xHH`.
    public var description: String {
        DNSSDBytes.quoted(bytes)
    }
}
