extension CastMessage {
    /// Field numbers of `cast_channel.proto`.
    private enum Field: UInt32 {
        case protocolVersion = 1, sourceID, destinationID, namespace, payloadType, payloadUTF8, payloadBinary
        case continued, remainingLength

        var wireType: ProtobufReader.WireType {
            switch self {
            case .protocolVersion, .payloadType, .continued, .remainingLength: .varint
            case .sourceID, .destinationID, .namespace, .payloadUTF8, .payloadBinary: .lengthDelimited
            }
        }
    }

    /// Decodes a message from its protobuf bytes (one frame's body). Unknown fields are skipped
    /// by their wire type; of a field given twice the last counts (proto2's rule).
    ///
    /// Read as Google's protobuf reads it (a field with another wire type than its type's, or an
    /// enum value the proto does not define, is an unknown field), except that text must be
    /// UTF-8 and the five required fields must be there.
    ///
    /// - Throws: ``CastChannelError`` of kind `.protocol` when the bytes are not a message: a
    ///   truncated field, a varint over ten bytes, a broken group, a string that is not UTF-8, or one of
    ///   the five required fields missing.
    public init(decoding bytes: [UInt8]) throws(CastChannelError) {
        do {
            self = try Self.decode(bytes)
        } catch {
            throw CastChannelError(.protocol, "a CastMessage that cannot be read: \(error)")
        }
    }

    private static func decode(_ bytes: [UInt8]) throws(ProtobufDecodingFailure) -> CastMessage {
        var reader = ProtobufReader(bytes)
        var version: UInt32?
        var source: String?
        var destination: String?
        var namespace: String?
        var payloadType: PayloadType?
        var utf8: String?
        var binary: [UInt8]?
        var continued: Bool?
        var remaining: UInt32?
        while let (number, wireType) = try reader.nextTag() {
            // A field this message does not have, or a known one with another wire type than
            // its type's, is an unknown field (protobuf's rule): skipped.
            guard let field = Field(rawValue: number), wireType == field.wireType else {
                try reader.skip(wireType, field: number)
                continue
            }
            switch field {
            case .protocolVersion:
                // An enum is an int32; a value the proto does not define (0 to 3) is an unknown
                // field in proto2, so an earlier valid one stays.
                let value = Int32(truncatingIfNeeded: try reader.varint())
                if (0...3).contains(value) { version = UInt32(value) }
            case .sourceID: source = try reader.string(field: "source_id")
            case .destinationID: destination = try reader.string(field: "destination_id")
            case .namespace: namespace = try reader.string(field: "namespace")
            case .payloadType:
                let value = Int32(truncatingIfNeeded: try reader.varint())
                if (0...1).contains(value) { payloadType = PayloadType(rawValue: UInt8(value)) }
            case .payloadUTF8: utf8 = try reader.string(field: "payload_utf8")
            case .payloadBinary: binary = Array(try reader.lengthDelimited())
            case .continued: continued = try reader.varint() != 0
            case .remainingLength:
                // A uint32 written as a wider varint keeps its low 32 bits (protobuf's rule).
                remaining = UInt32(truncatingIfNeeded: try reader.varint())
            }
        }
        guard let version else { throw .missing("protocol_version") }
        guard let source else { throw .missing("source_id") }
        guard let destination else { throw .missing("destination_id") }
        guard let namespace else { throw .missing("namespace") }
        guard let payloadType else { throw .missing("payload_type") }
        return CastMessage(
            protocolVersion: version, sourceID: source, destinationID: destination, namespace: namespace,
            payloadType: payloadType, payloadUTF8: utf8, payloadBinary: binary, continued: continued,
            remainingLength: remaining)
    }

    /// The message's protobuf bytes, fields in number order (as protobuf's encoders write them).
    public func encoded() -> [UInt8] {
        var writer = ProtobufWriter()
        writer.varintField(Field.protocolVersion.rawValue, UInt64(protocolVersion))
        writer.bytesField(Field.sourceID.rawValue, sourceID.utf8)
        writer.bytesField(Field.destinationID.rawValue, destinationID.utf8)
        writer.bytesField(Field.namespace.rawValue, namespace.utf8)
        writer.varintField(Field.payloadType.rawValue, UInt64(payloadType.rawValue))
        if let payloadUTF8 { writer.bytesField(Field.payloadUTF8.rawValue, payloadUTF8.utf8) }
        if let payloadBinary { writer.bytesField(Field.payloadBinary.rawValue, payloadBinary) }
        if let continued { writer.varintField(Field.continued.rawValue, continued ? 1 : 0) }
        if let remainingLength { writer.varintField(Field.remainingLength.rawValue, UInt64(remainingLength)) }
        return writer.bytes
    }
}
