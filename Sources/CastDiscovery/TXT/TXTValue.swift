/// The value of one TXT record attribute (RFC 6763 section 6.4).
public enum TXTValue: Sendable, Hashable {
    /// A boolean attribute: the key is present without an `=` (for example `"flag"`).
    case flag
    /// An attribute with a value: the bytes after the first `=`, possibly empty (`"key="`).
    case bytes([UInt8])
}
