@testable import CastDiscovery
import Foundation
import Testing

/// Packets from real devices (an Android TV, Sonos, eufy, Matter, a Thread border router) and
/// packets made to break parsers, as python-zeroconf's own tests keep them, each with what
/// python-zeroconf's DNSIncoming reads from it. They are another project's test data, never
/// kept here: `Tests/Scripts/peer-packets.py` fetches them from its pinned sdist into a scratch
/// folder, one file a packet in the form of Fixtures/packets/ (`Tests/Scripts/peer-packets-test.sh`,
/// part of make test). Each is read leniently, as a peer reads it: the same questions and the
/// same records, in order, among the types python-zeroconf models; a record it skips is skipped,
/// so the header's counts are not compared.
// Enabled only where CAST_PEER_PACKETS names that folder: a plain `swift test` has no packets
// to read (they are fetched from PyPI at test time). Set, the folder must hold packets.
@Suite(
    "DNSMessage on python-zeroconf's packets from real devices",
    .enabled(if: ProcessInfo.processInfo.environment["CAST_PEER_PACKETS"] != nil)
)
struct DNSPeerPacketTests {
    typealias Fixture = DNSPacketFixtureTests.Fixture

    static var directory: URL? {
        ProcessInfo.processInfo.environment["CAST_PEER_PACKETS"].map { URL(fileURLWithPath: $0, isDirectory: true) }
    }

    /// The packets in CAST_PEER_PACKETS; a folder without any, or a file that cannot be read, is
    /// an error (the parameterised tests never run zero cases). Unset, none: the suite is off.
    static func fixtures() throws -> [Fixture] {
        guard let directory else { return [] }
        return try DNSPacketFixtureTests.fixtures(in: directory)
    }

    /// The types compared: the ones both decoders model. python-zeroconf also reads HINFO and
    /// CNAME, which this decoder keeps as bytes without checking them (nothing here uses
    /// them): a record of those may be kept here where python-zeroconf drops it as malformed
    /// (test_record_consuming_more_than_rdlength_dropped_and_resyncs, an HINFO of one string).
    static let compared = DNSPacketFixtureTests.modelled

    @Test("the folder holds python-zeroconf's packets")
    func folder() throws {
        let fixtures = try Self.fixtures()
        #expect(!fixtures.isEmpty, "no packets in \(Self.directory?.path ?? "CAST_PEER_PACKETS")")
        #expect(
            fixtures.allSatisfy {
                ($0.expected["records"] as? [Any])?.isEmpty == false
                    || ($0.expected["questions"] as? [Any])?.isEmpty == false
            })
    }

    @Test("each packet decodes leniently to the questions and records python-zeroconf reads", arguments: try fixtures())
    func decodes(fixture: Fixture) throws {
        let message = try DNSMessage.decodingLeniently(fixture.bytes).message
        try DNSPacketFixtureTests.compare(message, with: fixture.expected, headerCounts: false, types: Self.compared)
    }

    /// One record as a line: owner, type, class, cache-flush bit, TTL and data, written the same
    /// way for ours and for python-zeroconf's (`expected` of Scripts/lab/capture-packets.py).
    static func line(_ record: DNSResourceRecord) -> String {
        let data: String
        switch record.data {
        case .ptr(let target): data = "ptr \(DNSPacketFixtureTests.zeroconfName(target))"
        case .srv(let priority, let weight, let port, let target):
            data = "srv \(priority) \(weight) \(port) \(DNSPacketFixtureTests.zeroconfName(target))"
        case .txt(let txt): data = "txt " + ((try? txt.wireFormat()).map { HexText.encode($0) } ?? "unencodable")
        case .a(let address): data = "a \(address)"
        case .aaaa(let address): data = "aaaa \(address)"
        case .nsec(let next, let types):
            data = "nsec \(DNSPacketFixtureTests.zeroconfName(next)) \(types.map { Int($0.rawValue) })"
        case .other: data = "other"
        }
        return
            "\(DNSPacketFixtureTests.zeroconfName(record.name)) type \(record.type.rawValue) class \(record.recordClass)"
            + " flush \(record.cacheFlush) ttl \(record.ttl) \(data)"
    }

    static func line(_ record: [String: Any]) -> String {
        func int(_ value: Any?) -> String { (value as? Int).map(String.init) ?? "?" }
        func text(_ value: Any?) -> String { value as? String ?? "?" }
        let data = record["data"] as? [String: Any] ?? [:]
        let shown: String
        if let target = data["ptr"] as? String {
            shown = "ptr \(target)"
        } else if let srv = data["srv"] as? [String: Any] {
            shown = "srv \(int(srv["priority"])) \(int(srv["weight"])) \(int(srv["port"])) \(text(srv["target"]))"
        } else if let hex = data["txtWireHex"] as? String {
            shown = "txt \(hex)"
        } else if let address = data["a"] as? String {
            shown = "a \(address)"
        } else if let address = data["aaaa"] as? String {
            shown = "aaaa \(address)"
        } else if let nsec = data["nsec"] as? [String: Any] {
            shown = "nsec \(text(nsec["next"])) \((nsec["types"] as? [Int]) ?? [])"
        } else {
            shown = "other"
        }
        return "\(text(record["name"])) type \(int(record["type"])) class \(int(record["class"]))"
            + " flush \((record["cacheFlush"] as? Bool).map(String.init) ?? "?") ttl \(int(record["ttl"])) \(shown)"
    }

    /// The issue's property: every record python-zeroconf keeps is kept, in the same order, and
    /// no other of the types compared (a record skipped is one it skips too).
    @Test("each packet keeps the records python-zeroconf keeps, in order, and no other", arguments: try fixtures())
    func sameRecords(fixture: Fixture) throws {
        let decoding = try DNSMessage.decodingLeniently(fixture.bytes)
        let ours = decoding.message.records.filter { Self.compared.contains($0.type) }.map(Self.line)
        let theirs = DNSPacketFixtureTests.records(fixture.expected, of: Self.compared).map(Self.line)
        #expect(
            ours == theirs,
            """
            \(fixture.file): python-zeroconf reads \(theirs.count) records, we read \(ours.count) \
            (skipped \(decoding.skippedRecords.map(String.init(describing:))), \
            stopped by \(decoding.stoppedBy.map(String.init(describing:)) ?? "nothing"))
            python-zeroconf only: \(theirs.filter { !ours.contains($0) })
            ours only: \(ours.filter { !theirs.contains($0) })
            """
        )
    }
}
