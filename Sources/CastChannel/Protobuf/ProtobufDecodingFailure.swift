/// Why protobuf bytes could not be read as a message, with the offset where it showed.
enum ProtobufDecodingFailure: Error, Equatable, CustomStringConvertible {
    case truncated(offset: Int)
    case varintTooLong(offset: Int)
    case badTag(offset: Int)
    case unsupportedWireType(UInt8, offset: Int)
    case unmatchedEndGroup(offset: Int)
    case groupTooDeep(offset: Int)
    /// A string field that is not UTF-8.
    case notUTF8(String)
    /// A required field that is not there.
    case missing(String)
    /// A repeated field given more often than its bound.
    case tooMany(String, limit: Int)
    /// A field longer than its bound.
    case tooLarge(String, bytes: Int, limit: Int)

    var description: String {
        switch self {
        case .truncated(let offset): "a field at byte \(offset) runs past the end"
        case .varintTooLong(let offset): "the varint at byte \(offset) is longer than ten bytes"
        case .badTag(let offset): "the tag at byte \(offset) has field number 0 or one above 2^29-1"
        case .unsupportedWireType(let type, let offset): "wire type \(type) at byte \(offset) is not one protobuf has"
        case .unmatchedEndGroup(let offset): "the group at byte \(offset) does not end where it should"
        case .groupTooDeep(let offset): "the group at byte \(offset) nests more than 100 deep"
        case .notUTF8(let field): "\(field) is not UTF-8"
        case .missing(let field): "\(field) (required) is missing"
        case .tooMany(let field, let limit): "\(field) is given more than \(limit) times"
        case .tooLarge(let field, let bytes, let limit): "\(field) has \(bytes) bytes (at most \(limit) are taken)"
        }
    }
}
