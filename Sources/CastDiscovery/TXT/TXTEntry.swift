/// One string of a DNS-SD TXT record (RFC 6763 section 6), kept exactly as on the wire.
///
/// The key is everything before the first `=`; the value is everything after it. A string with no
/// `=` is a boolean attribute. An entry read from a record's wire format shares that record's
/// bytes instead of copying them.
public struct TXTEntry: Sendable, Hashable {
    /// The string's bytes, without its length byte.
    let storage: ArraySlice<UInt8>

    /// Creates an entry from the raw bytes of one TXT string.
    public init(bytes: [UInt8]) {
        storage = bytes[...]
    }

    /// An entry over bytes of a larger buffer (a record's wire format).
    init(slice: ArraySlice<UInt8>) {
        storage = slice
    }

    /// Creates an entry from text such as `"key=value"` or `"flag"`, encoded as UTF-8.
    public init(_ string: String) {
        storage = Array(string.utf8)[...]
    }

    /// Creates an entry from a key and an optional value; a `nil` value makes a boolean attribute.
    public init(key: String, value: [UInt8]?) {
        var bytes = Array(key.utf8)
        if let value {
            bytes.append(DNSSDBytes.equals)
            bytes.append(contentsOf: value)
        }
        storage = bytes[...]
    }

    /// The string exactly as on the wire, without its length byte.
    public var bytes: [UInt8] { Array(storage) }

    /// The number of bytes in the string.
    public var count: Int { storage.count }

    /// The position of the first `=`, if any.
    private var separatorIndex: Int? {
        storage.firstIndex(of: DNSSDBytes.equals)
    }

    /// The key's bytes, in place.
    var keySlice: ArraySlice<UInt8> {
        guard let separatorIndex else { return storage }
        return storage[..<separatorIndex]
    }

    /// The value's bytes, in place; nil for a boolean attribute.
    var valueSlice: ArraySlice<UInt8>? {
        guard let separatorIndex else { return nil }
        return storage[(separatorIndex + 1)...]
    }

    /// The bytes before the first `=` (all bytes when there is none).
    public var key: [UInt8] { Array(keySlice) }

    /// The bytes after the first `=`; `nil` for a boolean attribute (no `=`).
    public var value: [UInt8]? { valueSlice.map(Array.init) }

    /// The key decoded as UTF-8, with invalid bytes replaced by U+FFFD.
    public var keyString: String {
        DNSSDBytes.decode(keySlice)
    }

    /// The value of this entry: `.flag` for a boolean attribute, otherwise its bytes.
    public var txtValue: TXTValue {
        value.map(TXTValue.bytes) ?? .flag
    }

    /// Whether the key of this entry equals `key`, comparing ASCII letters case-insensitively.
    /// An empty key never matches.
    func hasKey<C: Collection<UInt8>>(_ key: C) -> Bool {
        guard !key.isEmpty else { return false }
        return DNSSDBytes.asciiCaseInsensitiveEqual(keySlice, key)
    }
}

extension TXTEntry: CustomStringConvertible {
    /// The entry as a quoted string, with non-printable bytes written as `\xHH`.
    public var description: String {
        DNSSDBytes.quoted(storage)
    }
}
