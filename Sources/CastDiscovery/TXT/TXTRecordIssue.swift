/// Something unusual found while reading a TXT record; the record is still usable.
///
/// Indices count the strings of the record in order as received, including zero-length strings.
public enum TXTRecordIssue: Sendable, Hashable, CustomStringConvertible {
    /// The wire data ended inside a string: the partial string is dropped, strings before it are kept.
    /// `offset` is the position of that string's length byte.
    case truncated(offset: Int, declaredLength: Int, available: Int)
    /// A zero-length string inside the record; it is ignored.
    case emptyString(index: Int)
    /// A string starting with `=` (empty key); it is kept in the entries but never matches a lookup.
    case emptyKey(index: Int)
    /// A later occurrence of a key already present (compared case-insensitively); the first one wins.
    case duplicateKey(key: String, index: Int)

    /// A readable explanation of the issue.
    public var description: String {
        switch self {
        case .truncated(let offset, let declaredLength, let available):
            return
                "TXT data truncated: string at offset \(offset) declares \(declaredLength) bytes but only \(available) remain"
        case .emptyString(let index):
            return "TXT string \(index) is empty (ignored)"
        case .emptyKey(let index):
            return "TXT string \(index) has an empty key (ignored for lookups)"
        case .duplicateKey(let key, let index):
            return "TXT string \(index) repeats key \"\(key)\" (the first occurrence wins)"
        }
    }
}
