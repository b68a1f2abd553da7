/// Reads the protobuf wire format (proto2 and proto3 share it) from untrusted bytes: varints of
/// at most ten bytes, lengths checked against what is left before anything is sliced, unknown
/// fields skipped by wire type (groups, deprecated, to their end tag).
struct ProtobufReader {
    /// How a field's value is laid out (the low three bits of its tag).
    enum WireType: UInt8 {
        case varint = 0
        case fixed64 = 1
        case lengthDelimited = 2
        case startGroup = 3
        case endGroup = 4
        case fixed32 = 5
    }

    typealias Failure = ProtobufDecodingFailure

    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset >= bytes.count }

    /// A string field's text (its wire type checked by the caller), which must be UTF-8.
    mutating func string(field: String) throws(Failure) -> String {
        let bytes = try lengthDelimited()
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .notUTF8(field) }
        return text
    }

    /// The next field's number and wire type; nil at the end of the message.
    ///
    /// Field numbers run from 1 to 2^29 - 1; inside a group being skipped (`insideGroup`),
    /// Google's parser (upb) takes field number 0 as well, and so does this reader.
    mutating func nextTag(insideGroup: Bool = false) throws(Failure) -> (field: UInt32, wireType: WireType)? {
        guard !isAtEnd else { return nil }
        let start = offset
        let tag = try varint()
        let number = tag >> 3
        guard number >= (insideGroup ? 0 : 1), number < 1 << 29 else { throw .badTag(offset: start) }
        let raw = UInt8(tag & 7)
        guard let wireType = WireType(rawValue: raw) else { throw .unsupportedWireType(raw, offset: start) }
        return (UInt32(number), wireType)
    }

    /// A varint of at most ten bytes (the tenth may carry only the top bit of 64).
    mutating func varint() throws(Failure) -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count else { throw .truncated(offset: start) }
            let byte = bytes[offset]
            offset += 1
            if shift == 63, byte > 1 { throw .varintTooLong(offset: start) }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
            guard shift <= 63 else { throw .varintTooLong(offset: start) }
        }
    }

    /// A length-delimited value's bytes; the length is checked against what is left first.
    mutating func lengthDelimited() throws(Failure) -> ArraySlice<UInt8> {
        let start = offset
        let length = try varint()
        guard length <= UInt64(bytes.count - offset) else { throw .truncated(offset: start) }
        let end = offset + Int(length)
        defer { offset = end }
        return bytes[offset..<end]
    }

    /// How deep groups may nest in a skipped field: protobuf's own recursion limit.
    static let groupDepthLimit = 100

    /// Skips the value of field `number` of `wireType` (a field this reader does not know). A
    /// group is skipped to its end tag, nested groups too, at most ``groupDepthLimit`` deep.
    mutating func skip(_ wireType: WireType, field number: UInt32) throws(Failure) {
        let start = offset
        switch wireType {
        case .varint:
            _ = try varint()
        case .fixed64:
            try advance(by: 8, from: start)
        case .fixed32:
            try advance(by: 4, from: start)
        case .lengthDelimited:
            _ = try lengthDelimited()
        case .startGroup:
            // The open groups' field numbers; the work is linear in the bytes skipped.
            var open: [UInt32] = [number]
            while let last = open.last {
                guard let (inner, innerType) = try nextTag(insideGroup: true) else { throw .truncated(offset: start) }
                switch innerType {
                case .startGroup:
                    guard open.count < Self.groupDepthLimit else { throw .groupTooDeep(offset: start) }
                    open.append(inner)
                case .endGroup:
                    guard inner == last else { throw .unmatchedEndGroup(offset: start) }
                    open.removeLast()
                default:
                    try skip(innerType, field: inner)
                }
            }
        case .endGroup:
            throw .unmatchedEndGroup(offset: start)
        }
    }

    private mutating func advance(by count: Int, from start: Int) throws(Failure) {
        guard count <= bytes.count - offset else { throw .truncated(offset: start) }
        offset += count
    }
}
