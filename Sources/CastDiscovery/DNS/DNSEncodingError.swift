/// Why a DNS message could not be written.
public enum DNSEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The message would be larger than ``DNSMessage/maximumSize`` bytes.
    case messageTooLarge(size: Int)
    /// A section has more than 65,535 entries.
    case tooManyEntries(count: Int)
    /// A TXT record that cannot be written (an empty string, or one over 255 bytes).
    case badTXT(TXTRecordError)
    /// A record's data is over 65,535 bytes.
    case recordDataTooLong(length: Int)

    public var description: String {
        switch self {
        case .messageTooLarge(let size): "the message would be \(size) bytes; the maximum is \(DNSMessage.maximumSize)"
        case .tooManyEntries(let count): "a section has \(count) entries; the maximum is 65535"
        case .badTXT(let error): "a TXT record cannot be written: \(error)"
        case .recordDataTooLong(let length): "a record's data is \(length) bytes; the maximum is 65535"
        }
    }
}
