/// One message of the Cast channel (`CastMessage` of Chromium's `cast_channel.proto`, proto2):
/// who sends it to whom, on which namespace, and its payload (JSON text on every namespace but
/// device authentication).
public struct CastMessage: Sendable, Hashable {
    /// The payload's kind (`payload_type`).
    public enum PayloadType: UInt8, Sendable, Hashable {
        /// UTF-8 text, JSON on the namespaces a sender reads (`STRING`).
        case string = 0
        /// Bytes: device authentication's protobuf messages (`BINARY`).
        case binary = 1
    }

    /// The protocol version (`protocol_version`): 0 is `CASTV2_1_0`, what senders send.
    public var protocolVersion: UInt32
    /// The sender of the message (`source_id`): `sender-0`, `receiver-0`, an app's transport id.
    public var sourceID: String
    /// Its destination (`destination_id`); `*` is every sender (a broadcast).
    public var destinationID: String
    /// The namespace (`namespace`), as `urn:x-cast:com.google.cast.receiver`.
    public var namespace: String
    /// What the payload is (`payload_type`).
    public var payloadType: PayloadType
    /// The text payload (`payload_utf8`), when present.
    public var payloadUTF8: String?
    /// The binary payload (`payload_binary`), when present.
    public var payloadBinary: [UInt8]?
    /// Whether more of a chunked payload follows (`continued`), when present.
    public var continued: Bool?
    /// How much of a chunked payload is left (`remaining_length`), when present.
    public var remainingLength: UInt32?

    /// Creates a message.
    public init(
        protocolVersion: UInt32 = 0, sourceID: String, destinationID: String, namespace: String,
        payloadType: PayloadType = .string, payloadUTF8: String? = nil, payloadBinary: [UInt8]? = nil,
        continued: Bool? = nil, remainingLength: UInt32? = nil
    ) {
        self.protocolVersion = protocolVersion
        self.sourceID = sourceID
        self.destinationID = destinationID
        self.namespace = namespace
        self.payloadType = payloadType
        self.payloadUTF8 = payloadUTF8
        self.payloadBinary = payloadBinary
        self.continued = continued
        self.remainingLength = remainingLength
    }

    /// A JSON message from `source` to `destination` on `namespace`.
    public static func json(_ text: String, from source: String, to destination: String, on namespace: String)
        -> CastMessage
    {
        CastMessage(
            sourceID: source, destinationID: destination, namespace: namespace, payloadType: .string, payloadUTF8: text)
    }
}
