/// Cuts the bytes of a Cast channel into messages: each frame is a 4-byte big-endian length and
/// that many bytes of a ``CastMessage``. A length of 0 or above ``maximumLength`` is refused
/// before anything is allocated for it (Open Screen's framer refuses both).
public struct CastFrameDecoder: Sendable {
    /// The longest frame body accepted: 64 KiB.
    public static let maximumLength = 65_536

    private var buffer: [UInt8] = []
    private var start = 0

    /// Creates a decoder with nothing read.
    public init() {}

    /// How many bytes wait for the rest of their frame.
    public var bufferedCount: Int { buffer.count - start }

    /// Takes bytes read from the channel.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next whole message, or nil until more bytes come.
    ///
    /// - Throws: ``CastChannelError`` of kind `.protocol` for a length of 0 or above the
    ///   maximum, or a body that is not a CastMessage. The channel cannot be read further.
    public mutating func next() throws(CastChannelError) -> CastMessage? {
        guard bufferedCount >= 4 else { return nil }
        let length = buffer[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
        guard length > 0 else { throw CastChannelError(.protocol, "a frame of length 0") }
        guard length <= Self.maximumLength else {
            throw CastChannelError(.protocol, "a frame of \(length) bytes (at most \(Self.maximumLength) are accepted)")
        }
        guard bufferedCount - 4 >= length else { return nil }
        let body = Array(buffer[start + 4..<start + 4 + length])
        start += 4 + length
        if start > Self.maximumLength {
            buffer.removeFirst(start)
            start = 0
        }
        return try CastMessage(decoding: body)
    }

    /// A message as a frame: its length, then its bytes.
    ///
    /// - Throws: ``CastChannelError`` of kind `.protocol` when the message is longer than the
    ///   maximum a receiver accepts.
    public static func frame(_ message: CastMessage) throws(CastChannelError) -> [UInt8] {
        let body = message.encoded()
        guard body.count <= maximumLength else {
            throw CastChannelError(.protocol, "a message of \(body.count) bytes (at most \(maximumLength) can be sent)")
        }
        let length = UInt32(body.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body
    }
}
