/// Writes the protobuf wire format: tags, varints and length-delimited values, in the order
/// given (field order is the caller's; protobuf encoders write fields by number).
struct ProtobufWriter {
    private(set) var bytes: [UInt8] = []

    init() {}

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func tag(_ field: UInt32, _ wireType: ProtobufReader.WireType) {
        varint(UInt64(field) << 3 | UInt64(wireType.rawValue))
    }

    /// A varint field (an enum, a bool, an unsigned integer).
    mutating func varintField(_ field: UInt32, _ value: UInt64) {
        tag(field, .varint)
        varint(value)
    }

    /// A length-delimited field (a string's UTF-8, bytes).
    mutating func bytesField(_ field: UInt32, _ value: some Collection<UInt8>) {
        tag(field, .lengthDelimited)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }
}
