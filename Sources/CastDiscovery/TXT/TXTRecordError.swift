/// An error encoding a TXT record into wire format.
public enum TXTRecordError: Error, Hashable, CustomStringConvertible {
    /// The entry at `index` is `length` bytes long; a TXT string holds at most 255 bytes.
    case entryTooLong(index: Int, length: Int)
    /// The entry at `index` is empty; a TXT string needs at least one byte.
    case emptyEntry(index: Int)

    /// A readable explanation of the error.
    public var description: String {
        switch self {
        case .entryTooLong(let index, let length):
            return "TXT entry \(index) is \(length) bytes long; the maximum is 255"
        case .emptyEntry(let index):
            return "TXT entry \(index) is empty; a TXT string needs at least one byte"
        }
    }
}
