import CastDiscovery

/// DNS messages (`DNSMessage.decodingLeniently(_:)`, what the mDNS querier reads off the
/// network, and the strict `DNSMessage(decoding:)` over it).
///
/// - The work stays within its linear bound: `work <= DNSMessage.workBound(forSize:)`.
/// - The strict decode agrees with the lenient one: the same message when nothing was skipped
///   or cut off, else the first error the lenient read met.
/// - What decodes re-encodes (unless the result would be too large) and the strict decode of
///   the encoding is the same message; encoding that again gives the same bytes.
/// - Errors are `DNSDecodingError`s whose text holds no raw control character.
public enum DNSMessageProperties {
    static let property = Property(target: "dns-message")

    public static func check(_ bytes: [UInt8]) throws(PropertyFailure) {
        let decoding: DNSLenientDecoding
        do {
            decoding = try DNSMessage.decodingLeniently(bytes)
        } catch {
            try property.requireNoRawControl(error.description, in: "the error")
            do {
                _ = try DNSMessage(decoding: bytes)
                throw property.fail("the lenient decode threw \(error) but the strict one did not")
            } catch let strict as DNSDecodingError {
                try property.require(strict == error, "the lenient decode threw \(error), the strict one \(strict)")
            } catch {
                throw error as! PropertyFailure
            }
            return
        }
        let bound = DNSMessage.workBound(forSize: bytes.count)
        try property.require(
            decoding.work <= bound, "decoding \(bytes.count) bytes took \(decoding.work) steps, over the bound \(bound)"
        )
        for error in decoding.skippedRecords + (decoding.stoppedBy.map { [$0] } ?? []) {
            try property.requireNoRawControl(error.description, in: "the error")
        }
        try checkStrict(bytes, decoding)
        try checkRoundTrip(decoding.message)
    }

    private static func checkStrict(_ bytes: [UInt8], _ decoding: DNSLenientDecoding) throws(PropertyFailure) {
        let expected = decoding.skippedRecords.first ?? decoding.stoppedBy
        do {
            let strict = try DNSMessage(decoding: bytes)
            try property.require(
                expected == nil, "the strict decode read a message the lenient one stopped in (\(expected!))")
            try property.require(strict == decoding.message, "the strict and lenient decodes give different messages")
        } catch let error as DNSDecodingError {
            try property.require(
                error == expected,
                "the strict decode threw \(error), the lenient one met \(String(describing: expected))")
        } catch {
            throw error as! PropertyFailure
        }
    }

    private static func checkRoundTrip(_ message: DNSMessage) throws(PropertyFailure) {
        let encoded: [UInt8]
        do {
            encoded = try message.encoded()
        } catch {
            if case .messageTooLarge = error { return }
            throw property.fail("a decoded message cannot be encoded: \(error)")
        }
        let decoded: DNSMessage
        do {
            decoded = try DNSMessage(decoding: encoded)
        } catch {
            throw property.fail(
                "the encoding of a decoded message does not decode strictly: \(error); \(RawControl.escaped(bytes: encoded))"
            )
        }
        // What a lenient read found wrong in a TXT record (a string cut short) is how it was
        // read, not what it holds: the re-encoded record is whole, so only the rest compares.
        try property.require(
            withoutTXTIssues(decoded) == withoutTXTIssues(message),
            "decode(encode(m)) != m:\n\(decoded)\nvs\n\(message)")
        let again = try? decoded.encoded()
        try property.require(again == encoded, "encoding is not stable")
        if let work = try? DNSMessage.decodingLeniently(encoded).work {
            try property.require(
                work <= DNSMessage.workBound(forSize: encoded.count),
                "an encoded message costs \(work) steps, over its bound")
        }
    }

    /// `message` with each TXT record's issues dropped (its entries kept).
    private static func withoutTXTIssues(_ message: DNSMessage) -> DNSMessage {
        func clean(_ records: [DNSResourceRecord]) -> [DNSResourceRecord] {
            records.map { record in
                guard case .txt(let txt) = record.data else { return record }
                var copy = record
                copy.data = .txt(TXTRecord(entries: txt.entries))
                return copy
            }
        }
        var copy = message
        copy.answers = clean(copy.answers)
        copy.authorities = clean(copy.authorities)
        copy.additionals = clean(copy.additionals)
        return copy
    }
}
