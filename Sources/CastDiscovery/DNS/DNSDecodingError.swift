/// Why a DNS message, or a record of one, could not be read: the problem and the byte offset
/// where it was found.
public struct DNSDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Sendable, Hashable {
        /// The message is larger than ``DNSMessage/maximumSize``.
        case messageTooLarge(size: Int)
        /// The message ends in the middle of the header, a field or a record.
        case truncated
        /// A name's label or pointer runs past the end of the message.
        case nameRunsPastEnd
        /// A length byte that is neither a label of 1-63 bytes nor a pointer (64-191: the
        /// reserved and extended label types).
        case labelTooLong(length: Int)
        /// A name longer than 255 bytes once decompressed.
        case nameTooLong
        /// A compression pointer past the end of the message.
        case pointerOutsideMessage(target: Int)
        /// A name that visits more than ``DNSMessage/maximumNameSteps`` labels and pointers:
        /// its pointers loop.
        case pointerLoop(target: Int)
        /// The message costs more than its work bound (``DNSMessage/decodingLeniently(_:)``): a
        /// compression bomb.
        case workBoundExceeded(bound: Int)
        /// A record whose data length does not fit its type (an A record that is not 4 bytes, a
        /// name that does not end at the end of the data, an NSEC bitmap out of order).
        case badRecordData(type: DNSRecordType, reason: String)
        /// A record whose data length runs past the end of the message.
        case recordDataPastEnd
    }

    /// What is wrong.
    public var kind: Kind
    /// The byte offset in the message where the problem was found.
    public var offset: Int

    /// Creates an error.
    public init(_ kind: Kind, at offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    public var description: String {
        let what: String =
            switch kind {
            case .messageTooLarge(let size): "the message is \(size) bytes; the maximum is \(DNSMessage.maximumSize)"
            case .truncated: "the message ends early"
            case .nameRunsPastEnd: "a name runs past the end of the message"
            case .labelTooLong(let length): "length byte \(length) is neither a label of 1-63 bytes nor a pointer"
            case .nameTooLong: "a name is longer than 255 bytes"
            case .pointerOutsideMessage(let target):
                "a compression pointer points past the end of the message (to \(target))"
            case .pointerLoop(let target):
                "a name visits more than \(DNSMessage.maximumNameSteps) labels and pointers: its pointers loop (to \(target))"
            case .workBoundExceeded(let bound): "the message costs more than \(bound) labels and pointers to read"
            case .badRecordData(let type, let reason): "bad \(type) record data: \(reason)"
            case .recordDataPastEnd: "a record's data runs past the end of the message"
            }
        return "\(what) (byte \(offset))"
    }
}
