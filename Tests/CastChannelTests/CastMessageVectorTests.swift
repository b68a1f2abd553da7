@testable import CastChannel
import Foundation
import Testing

/// The codec against Google's protobuf encoder and parser, through the vectors
/// `Tests/Scripts/cast-message-vectors.py` makes: `Fixtures/cast-channel/cast-message-vectors.json`
/// (seed 33), or the file `CAST_MESSAGE_VECTORS` names (make test makes one with a new seed).
@Suite("CastMessage against Google's protobuf")
struct CastMessageVectorTests {
    struct Vector: Decodable {
        var kind: String
        var bytes: String
        var message: [String: JSONValue]?
        var googleAccepts: Bool?
    }

    struct File: Decodable {
        var seed: Int
        var vectors: [Vector]
    }

    enum JSONValue: Decodable, Equatable {
        case number(UInt64), text(String), flag(Bool)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                self = .flag(flag)
            } else if let number = try? container.decode(UInt64.self) {
                self = .number(number)
            } else {
                self = .text(try container.decode(String.self))
            }
        }
    }

    static let path: String = {
        if let path = ProcessInfo.processInfo.environment["CAST_MESSAGE_VECTORS"], !path.isEmpty { return path }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/cast-channel/cast-message-vectors.json").path
    }()

    static func load() throws -> File {
        try JSONDecoder().decode(File.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static func bytes(_ hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            out.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return out
    }

    /// The message a vector's fields describe.
    static func message(_ fields: [String: JSONValue]) throws -> CastMessage {
        func text(_ name: String) throws -> String {
            guard case .text(let value)? = fields[name] else { throw VectorError(field: name) }
            return value
        }
        func number(_ name: String) throws -> UInt64? {
            guard let value = fields[name] else { return nil }
            guard case .number(let number) = value else { throw VectorError(field: name) }
            return number
        }
        var message = CastMessage(
            protocolVersion: UInt32(try number("protocol_version") ?? 99), sourceID: try text("source_id"),
            destinationID: try text("destination_id"), namespace: try text("namespace"),
            payloadType: CastMessage.PayloadType(rawValue: UInt8(try number("payload_type") ?? 9)) ?? .string)
        if fields["payload_utf8"] != nil { message.payloadUTF8 = try text("payload_utf8") }
        if fields["payload_binary"] != nil { message.payloadBinary = bytes(try text("payload_binary")) }
        if case .flag(let flag)? = fields["continued"] { message.continued = flag }
        if let remaining = try number("remaining_length") { message.remainingLength = UInt32(remaining) }
        return message
    }

    struct VectorError: Error {
        var field: String
    }

    @Test("every message Google encodes: the same bytes from the codec, and read back the same")
    func encode() throws {
        let vectors = try Self.load().vectors.filter { $0.kind == "encode" }
        #expect(vectors.count >= 50)
        for vector in vectors {
            let expected = try Self.message(try #require(vector.message))
            let bytes = Self.bytes(vector.bytes)
            #expect(expected.encoded() == bytes, "encoding differs from Google's: \(vector.bytes)")
            #expect(try CastMessage(decoding: bytes) == expected)
        }
    }

    @Test(
        "fields in any order, some twice (the last counts), among unknown fields of every wire type: read as Google reads them"
    )
    func decode() throws {
        let vectors = try Self.load().vectors.filter { $0.kind == "decode" }
        #expect(vectors.count >= 50)
        for vector in vectors {
            let expected = try Self.message(try #require(vector.message))
            #expect(try CastMessage(decoding: Self.bytes(vector.bytes)) == expected, "\(vector.bytes)")
        }
    }

    @Test("messages cut short or with a byte changed: read as Google reads them, or refused where it refuses")
    func verdicts() throws {
        let vectors = try Self.load().vectors.filter { $0.kind == "verdict" }
        #expect(vectors.count >= 50)
        var refusedByBoth = 0
        for vector in vectors {
            let bytes = Self.bytes(vector.bytes)
            let ours = Result { () throws(CastChannelError) in try CastMessage(decoding: bytes) }
            if let fields = vector.message {
                #expect(try ours.get() == Self.message(fields), "\(vector.bytes)")
            } else {
                // Google refuses it, or takes text that is not UTF-8 or a message without a
                // required field, which the codec refuses (see the generator).
                #expect(throws: CastChannelError.self, "\(vector.bytes)") { try ours.get() }
                if vector.googleAccepts == false { refusedByBoth += 1 }
            }
        }
        #expect(refusedByBoth > 0)
    }
}
