@testable import CastDiscovery
import Foundation
import Testing

/// Packets captured in the lab from two independent stacks (python-zeroconf responders and
/// avahi-daemon answering for a service it publishes), each with the message
/// python-zeroconf's own decoder reads from it (`Scripts/lab/capture-packets.py`).
@Suite("DNSMessage on captured packets")
struct DNSPacketFixtureTests {
    struct Fixture: Sendable, CustomTestStringConvertible {
        var file: String
        var bytes: [UInt8]
        /// The file's `expected` object, as JSON.
        var expectedJSON: Data
        var testDescription: String { file }

        var expected: [String: Any] {
            (try? JSONSerialization.jsonObject(with: expectedJSON) as? [String: Any]) ?? [:]
        }
    }

    static let directory = DeviceFixture.fixturesDirectory.appendingPathComponent("packets")

    /// Every fixture; one that cannot be read or lacks a field is an error naming it, and so is
    /// an empty folder, so the parameterised test never runs zero cases or drops one silently.
    static func fixtures() throws -> [Fixture] { try fixtures(in: directory) }

    /// Every `*.json` file in `directory` as a fixture (DNSPeerPacketTests reads another folder).
    static func fixtures(in directory: URL) throws -> [Fixture] {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
            .sorted()
        guard !files.isEmpty else { throw FixtureSetEmpty(folder: directory.path) }
        return try files.map { file in
            let data = try Data(contentsOf: directory.appendingPathComponent(file))
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                let hex = object["hex"] as? String, let expected = object["expected"] as? [String: Any],
                let bytes = HexText.bytes(hex)
            else { throw FixtureSetEmpty(folder: "\(file): no hex or expected field") }
            return Fixture(file: file, bytes: bytes, expectedJSON: try JSONSerialization.data(withJSONObject: expected))
        }
    }

    @Test("the fixtures cover both stacks, queries and answers, every record type DNS-SD uses")
    func coverage() throws {
        let fixtures = try Self.fixtures()
        #expect(fixtures.count >= 8, "\(fixtures.map(\.file))")
        #expect(fixtures.contains { $0.file.hasPrefix("avahi-") })
        #expect(fixtures.contains { $0.file.hasPrefix("zeroconf-response") })
        let messages = try fixtures.map { try DNSMessage(decoding: $0.bytes) }
        let types = Set(messages.flatMap(\.records).map(\.type))
        // No NSEC: neither stack sends one in the lab, where every host has both address
        // families (the NSEC codec is checked by the round trip and the error cases).
        for type in [DNSRecordType.ptr, .srv, .txt, .a, .aaaa] {
            #expect(types.contains(type), "no \(type) record captured")
        }
        #expect(messages.contains { !$0.authorities.isEmpty }, "no probe (authority section) captured")
        #expect(messages.contains { $0.records.contains(where: \.cacheFlush) })
    }

    /// The name as python-zeroconf writes it: labels as UTF-8 text joined by dots, a final dot.
    static func zeroconfName(_ name: DNSName) -> String {
        name.labels.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ".") + "."
    }

    static let modelled: Set<DNSRecordType> = [.a, .ptr, .txt, .aaaa, .srv, .nsec]

    @Test("each captured packet decodes to what python-zeroconf reads from it", arguments: try fixtures())
    func decodes(fixture: Fixture) throws {
        let message = try DNSMessage(decoding: fixture.bytes)
        try Self.compare(message, with: fixture.expected)
        // And the message survives a round trip through the encoder.
        #expect(try DNSMessage(decoding: message.encoded()) == message)
    }

    /// Checks `message` against `expected`, the message as python-zeroconf's DNSIncoming reads
    /// it (`expected()` of Scripts/lab/capture-packets.py): id, flags, the header's counts unless
    /// `headerCounts` is false, the questions, and the records of the `types` compared (python-
    /// zeroconf skips the types it does not model, and this decoder keeps the types it does not
    /// model as bytes, unchecked), in order.
    /// The records of `expected` whose type is one of `types`.
    static func records(_ expected: [String: Any], of types: Set<DNSRecordType>) -> [[String: Any]] {
        ((expected["records"] as? [[String: Any]]) ?? []).filter { record in
            (record["type"] as? Int).flatMap(UInt16.init(exactly:)).map { types.contains(DNSRecordType(rawValue: $0)) }
                ?? false
        }
    }

    static func compare(
        _ message: DNSMessage, with expected: [String: Any], headerCounts: Bool = true,
        types: Set<DNSRecordType> = modelled
    ) throws {
        #expect(Int(message.id) == expected["id"] as? Int)
        #expect(Int(message.flags) == expected["flags"] as? Int)
        if headerCounts {
            #expect(
                [message.questions.count, message.answers.count, message.authorities.count, message.additionals.count]
                    == expected["counts"] as? [Int])
        }
        let questions = (expected["questions"] as? [[String: Any]]) ?? []
        #expect(message.questions.count == questions.count)
        for (question, want) in zip(message.questions, questions) {
            #expect(Self.zeroconfName(question.name) == want["name"] as? String)
            #expect(Int(question.type.rawValue) == want["type"] as? Int)
            #expect(Int(question.recordClass) == want["class"] as? Int)
            #expect(question.unicastResponse == want["unicastResponse"] as? Bool)
        }
        let records = message.records.filter { types.contains($0.type) }
        let wanted = Self.records(expected, of: types)
        #expect(records.count == wanted.count)
        for (record, want) in zip(records, wanted) {
            #expect(Self.zeroconfName(record.name) == want["name"] as? String)
            #expect(Int(record.type.rawValue) == want["type"] as? Int)
            #expect(Int(record.recordClass) == want["class"] as? Int)
            #expect(record.cacheFlush == want["cacheFlush"] as? Bool)
            #expect(Int(record.ttl) == want["ttl"] as? Int)
            let data = want["data"] as? [String: Any] ?? [:]
            switch record.data {
            case .ptr(let target):
                #expect(Self.zeroconfName(target) == data["ptr"] as? String)
            case .srv(let priority, let weight, let port, let target):
                let srv = data["srv"] as? [String: Any] ?? [:]
                #expect(
                    [Int(priority), Int(weight), Int(port)]
                        == [srv["priority"], srv["weight"], srv["port"]].compactMap { $0 as? Int })
                #expect(Self.zeroconfName(target) == srv["target"] as? String)
            case .txt(let txt):
                let wire = try txt.wireFormat()
                #expect(wire.map { String(format: "%02x", $0) }.joined() == data["txtWireHex"] as? String)
            case .a(let address):
                #expect(address.description == data["a"] as? String)
            case .aaaa(let address):
                #expect(address.description == data["aaaa"] as? String)
            case .nsec(let next, let types):
                let nsec = data["nsec"] as? [String: Any] ?? [:]
                #expect(Self.zeroconfName(next) == nsec["next"] as? String)
                #expect(types.map { Int($0.rawValue) } == nsec["types"] as? [Int])
            case .other(let type, _):
                if !(data["other"] as? Bool == true || type == .cname && data["ptr"] is String) {
                    Issue.record("a modelled type decoded as other: \(record)")
                }
            }
        }
    }
}
