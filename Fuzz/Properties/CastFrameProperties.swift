import CastChannel

/// Cast frames: `CastFrameDecoder` cutting a byte stream into 4-byte-length frames, and
/// `CastMessage(decoding:)` reading each body.
///
/// The input's first byte picks how the stream is cut into reads (so frames split across reads
/// are covered); the rest is the stream.
/// - A frame length of 0 or over `CastFrameDecoder.maximumLength` is refused when its 4 bytes
///   arrive (before its body), and nothing is read past it; every message given came from a
///   frame within the bound.
/// - How the stream is cut into reads changes nothing: the same messages, the same failure.
/// - What decodes re-encodes and decodes to the same message, and re-framed messages read back
///   as the same messages.
/// - The whole input read as one message body: the same round trip.
/// - Errors are `CastChannelError`s whose text holds no raw control character.
public enum CastFrameProperties {
    static let property = Property(target: "cast-frame")

    public static func check(_ bytes: [UInt8]) throws(PropertyFailure) {
        guard let first = bytes.first else { return }
        let stream = Array(bytes.dropFirst())
        let whole = try read(stream, chunk: stream.count + 1)
        try checkBound(stream, whole)
        let chunk = Int(first % 64) + 1
        let cut = try read(stream, chunk: chunk)
        try property.require(
            cut.messages == whole.messages && cut.failure == whole.failure,
            "read in reads of \(chunk) bytes: \(cut.messages.count) messages, failure \(String(describing: cut.failure)); "
                + "read at once: \(whole.messages.count) messages, failure \(String(describing: whole.failure))")
        var reframed: [UInt8] = []
        for message in whole.messages {
            try checkRoundTrip(message)
            do {
                reframed += try CastFrameDecoder.frame(message)
            } catch {
                throw property.fail("a message read from a frame cannot be framed again: \(error)")
            }
        }
        let again = try read(reframed, chunk: reframed.count + 1)
        try property.require(
            again.messages == whole.messages && again.failure == nil,
            "re-framed messages read back as \(again.messages.count) messages, failure \(String(describing: again.failure))"
        )
        // The input as one frame's body.
        do {
            let message = try CastMessage(decoding: stream)
            try checkRoundTrip(message)
        } catch let error as CastChannelError {
            try property.requireNoRawControl(error.description, in: "the error")
        } catch let failure as PropertyFailure {
            throw failure
        } catch {
            throw property.fail("CastMessage(decoding:) threw \(error)")
        }
    }

    private struct Reading {
        var messages: [CastMessage] = []
        var failure: CastChannelError?
        var buffered = 0
    }

    /// The messages `stream` gives when it arrives `chunk` bytes at a time, and the failure
    /// that stopped it.
    private static func read(_ stream: [UInt8], chunk: Int) throws(PropertyFailure) -> Reading {
        var decoder = CastFrameDecoder()
        var reading = Reading()
        var offset = 0
        reading: while offset < stream.count {
            let end = min(stream.count, offset + chunk)
            decoder.append(stream[offset..<end])
            offset = end
            do {
                while let message = try decoder.next() { reading.messages.append(message) }
            } catch {
                try property.requireNoRawControl(error.description, in: "the frame error")
                reading.failure = error
                break reading
            }
            try property.require(
                decoder.bufferedCount <= CastFrameDecoder.maximumLength + 3,
                "the decoder holds \(decoder.bufferedCount) bytes waiting, more than a partial frame")
        }
        reading.buffered = decoder.bufferedCount
        return reading
    }

    /// The frames of `stream` walked here: each length within the bound gives a message (or
    /// the body's failure); the first out of bound is refused with nothing read past it.
    private static func checkBound(_ stream: [UInt8], _ reading: Reading) throws(PropertyFailure) {
        var offset = 0
        var frames = 0
        while stream.count - offset >= 4 {
            let length = stream[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            if length == 0 || length > CastFrameDecoder.maximumLength {
                try property.require(
                    reading.failure != nil && reading.messages.count == frames,
                    "frame \(frames) has length \(length) (the bound is 1...\(CastFrameDecoder.maximumLength)) "
                        + "but the decoder gave \(reading.messages.count) messages, failure \(String(describing: reading.failure))"
                )
                return
            }
            guard stream.count - offset - 4 >= length else { break }
            offset += 4 + length
            frames += 1
            if reading.messages.count < frames {
                // A body that is not a message stops the reading there.
                try property.require(
                    reading.failure != nil && reading.messages.count == frames - 1,
                    "frame \(frames - 1) is whole but the decoder gave \(reading.messages.count) messages, "
                        + "failure \(String(describing: reading.failure))")
                return
            }
        }
        try property.require(
            reading.failure == nil && reading.messages.count == frames && reading.buffered == stream.count - offset,
            "\(frames) whole frames and \(stream.count - offset) bytes after them, but the decoder gave "
                + "\(reading.messages.count) messages, failure \(String(describing: reading.failure)), \(reading.buffered) bytes waiting"
        )
    }

    private static func checkRoundTrip(_ message: CastMessage) throws(PropertyFailure) {
        let encoded = message.encoded()
        let decoded: CastMessage
        do {
            decoded = try CastMessage(decoding: encoded)
        } catch {
            throw property.fail(
                "an encoded message cannot be decoded: \(error); bytes \(RawControl.escaped(bytes: encoded))")
        }
        try property.require(decoded == message, "decode(encode(m)) != m: \(decoded) vs \(message)")
        try property.require(decoded.encoded() == encoded, "encoding is not stable")
    }
}
