import CastDiscovery
import Foundation
import Testing

/// A replay file's events of every kind: what `ReplayRecording.json()` writes reads back as the
/// same events, and what a file gets wrong is refused with the field it is in.
@Suite("Replay events: every kind through JSON, and bad fields")
struct ReplayEventCodingTests {
    typealias S = TestService

    static let printer = ServiceType(name: "_ipp", transport: .tcp)
    static let plainCopy = ServiceCopyKey(
        service: ServiceKey(name: "Living Room TV", type: .googleCast, domain: "local"), interfaceIndex: 2,
        transport: .ipv4)
    static let printerCopy = ServiceCopyKey(
        service: ServiceKey(name: "Office printer", type: printer, domain: "example.org"), interfaceIndex: 7,
        transport: nil)
    static let timeout = DiscoveryError(kind: .daemonError, message: "Timeout reached", fix: "Try again.", code: -15)

    static func resolution(knownHost: String? = nil) -> ServiceResolution {
        ServiceResolution(
            hostName: "cc-1.local", port: 8009,
            addresses: [
                ServiceAddress("10.0.0.1", interfaceName: "eth0", interfaceIndex: 2)!,
                ServiceAddress("fd00::1", interfaceName: "eth0", interfaceIndex: 2)!,
            ],
            txt: TXTRecord(strings: ["id=\(S.uuid(1))", "fn=Living Room TV"].map { Array($0.utf8) }),
            knownHost: knownHost)
    }

    static var statistics: BackendStatistics {
        var counts = BackendStatistics()
        counts.packetsReceived = 40
        counts.malformedPackets = 1
        counts.malformedRecords = 2
        counts.offLinkPackets = 3
        counts.ignoredPackets = 4
        counts.droppedRecords = 5
        counts.queriesSent = 6
        counts.suppressedQueries = 7
        counts.unansweredHosts = ["192.0.2.9"]
        counts.coalescedEvents = 8
        return counts
    }

    /// One event of each kind (several of some, to reach each optional field).
    static var everyKind: [BackendEvent] {
        [
            .stateChanged(.connecting), .stateChanged(.running), .stateChanged(.daemonLost),
            .stateChanged(.failed(timeout)),
            .browseStarted(browseType: S.base),
            .copyAdded(plainCopy, browseType: S.dmr), .copyAdded(printerCopy, browseType: "_ipp._tcp"),
            .copyRemoved(printerCopy, browseType: "_ipp._tcp"),
            .copyResolved(plainCopy, resolution(), stillAsking: true),
            .copyResolved(printerCopy, resolution(knownHost: "192.0.2.7"), stillAsking: false),
            .copyAddressesComplete(plainCopy), .copyFailed(printerCopy, timeout), .copyLimit(4),
            .found(S.make("a", id: S.uuid(1), name: "A", browse: [S.base, S.dmr])),
            .updated(S.make("a", id: S.uuid(1), name: "A2")), .removed(S.make("a", id: S.uuid(1), name: "A2")),
            .cacheExhausted(browseType: S.base), .allForNow(browseType: S.dmr),
            .resolveFailed(ServiceKey(name: "Office printer", type: printer, domain: "example.org"), timeout),
            .resolvesPending(0), .resolvesPending(3), .statistics(statistics),
            .sourceProgress(
                SourceProgress(
                    source: "avahi", role: .asks, browseType: S.base, milestone: .cacheExhausted, services: 2)),
        ]
    }

    static func badInput(_ json: String) -> DiscoveryError? {
        do throws(DiscoveryError) {
            _ = try ReplayRecording(json: Data(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    /// A version-1 file of the one event `fields` (JSON object members) describes.
    static func file(_ fields: String) -> String {
        "{\"version\": 1, \"events\": [{\"at\": 0, \(fields)}]}"
    }

    @Test("an event of every kind reads back as written, with its time")
    func everyKindRoundTrips() throws {
        let events = Self.everyKind.enumerated().map { ReplayEvent(time: Double($0.offset) / 4, event: $0.element) }
        let recording = try ReplayRecording(description: "every kind", events: events)
        let json = recording.json()
        let again = try ReplayRecording(json: json)
        #expect(again == recording)
        #expect(again.description == "every kind")
        for (read, written) in zip(again.events, events) {
            #expect(read == written)
        }
        // The file names each kind of ReplayEvent.kinds, so no kind went untested.
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let written = try #require(object["events"] as? [[String: Any]])
        #expect(Set(written.compactMap { $0["kind"] as? String }) == Set(ReplayEvent.kinds))
    }

    @Test("a copy's default type, domain and absent family are left out of the file, others kept")
    func copyFields() throws {
        let recording = try ReplayRecording(events: [
            ReplayEvent(time: 0, event: .copyAdded(Self.plainCopy, browseType: S.base)),
            ReplayEvent(time: 0, event: .copyAdded(Self.printerCopy, browseType: "_ipp._tcp")),
            ReplayEvent(time: 0, event: .copyResolved(Self.plainCopy, Self.resolution(), stillAsking: false)),
        ])
        let object = try #require(try JSONSerialization.jsonObject(with: recording.json()) as? [String: Any])
        let events = try #require(object["events"] as? [[String: Any]])
        try #require(events.count == 3)
        #expect(events[0]["type"] == nil && events[0]["domain"] == nil)
        #expect(events[0]["family"] as? String == "ipv4")
        #expect(events[0]["interfaceIndex"] as? Int == 2)
        #expect(events[1]["type"] as? String == "_ipp._tcp")
        #expect(events[1]["domain"] as? String == "example.org")
        #expect(events[1]["family"] == nil)
        #expect(events[2]["stillAsking"] == nil, "false is the default, left out")
    }

    @Test("a type field that names a subtype reads as its base type")
    func subtypeReadsAsBase() throws {
        let recording = try ReplayRecording(
            json: Data(
                Self.file(
                    "\"kind\": \"copyAdded\", \"instance\": \"x\", \"interfaceIndex\": 3, \"type\": \"_CC1AD845._sub._googlecast._tcp\", \"browseType\": \"\(S.dmr)\""
                ).utf8))
        let expected = ServiceCopyKey(
            service: ServiceKey(name: "x", type: .googleCast, domain: "local"), interfaceIndex: 3, transport: nil)
        #expect(recording.events.map(\.event) == [.copyAdded(expected, browseType: S.dmr)])
    }

    @Test(
        "bad fields of copy, count, statistics and progress events give badInput errors that say where and what",
        arguments: [
            ("\"kind\": \"browseStarted\"", "events[0]: kind \"browseStarted\" needs \"browseType\""),
            (
                "\"kind\": \"copyAdded\", \"interfaceIndex\": 1, \"browseType\": \"b\"",
                "events[0]: kind \"copyAdded\" needs \"instance\""
            ),
            (
                "\"kind\": \"copyAdded\", \"instance\": \"x\", \"browseType\": \"b\"",
                "events[0]: kind \"copyAdded\" needs \"interfaceIndex\""
            ),
            (
                "\"kind\": \"copyRemoved\", \"instance\": \"x\", \"interfaceIndex\": 1",
                "events[0]: kind \"copyRemoved\" needs \"browseType\""
            ),
            (
                "\"kind\": \"copyAdded\", \"instance\": \"x\", \"interfaceIndex\": 1, \"browseType\": \"b\", \"type\": \"_googlecast\"",
                "events[0].type: missing transport label"
            ),
            (
                "\"kind\": \"copyAdded\", \"instance\": \"x\", \"interfaceIndex\": 1, \"browseType\": \"b\", \"type\": \"_googlecast._xyz\"",
                "events[0].type: transport label \"_xyz\""
            ),
            (
                "\"kind\": \"copyAdded\", \"instance\": \"x\", \"interfaceIndex\": 1, \"browseType\": \"b\", \"family\": \"ipx\"",
                "events[0].family: "
            ),
            (
                "\"kind\": \"copyResolved\", \"instance\": \"x\", \"interfaceIndex\": 1",
                "events[0]: kind \"copyResolved\" needs \"service\""
            ),
            (
                "\"kind\": \"copyResolved\", \"instance\": \"x\", \"interfaceIndex\": 1, \"service\": {\"instance\": \"x\", \"host\": \"h\", \"port\": -1}",
                "events[0].service.port: -1 is not a port number"
            ),
            (
                "\"kind\": \"copyAddressesComplete\", \"interfaceIndex\": 1",
                "events[0]: kind \"copyAddressesComplete\" needs \"instance\""
            ),
            (
                "\"kind\": \"copyFailed\", \"instance\": \"x\", \"interfaceIndex\": 1",
                "events[0]: kind \"copyFailed\" needs \"error\""
            ),
            (
                "\"kind\": \"copyFailed\", \"instance\": \"x\", \"interfaceIndex\": 1, \"error\": {\"kind\": \"nope\", \"message\": \"m\"}",
                "events[0].error.kind: unknown error kind \"nope\""
            ),
            ("\"kind\": \"copyLimit\"", "events[0]: kind \"copyLimit\" needs \"copies\""),
            ("\"kind\": \"copyLimit\", \"copies\": 0", "events[0].copies: must be at least 1"),
            ("\"kind\": \"resolvesPending\"", "events[0]: kind \"resolvesPending\" needs \"pending\""),
            ("\"kind\": \"resolvesPending\", \"pending\": -1", "events[0].pending: must not be negative"),
            ("\"kind\": \"statistics\"", "events[0]: kind \"statistics\" needs \"statistics\""),
            (
                "\"kind\": \"statistics\", \"statistics\": {\"packetsReceived\": 1}",
                "events[0].statistics.malformedPackets: missing"
            ),
            (
                "\"kind\": \"resolveFailed\", \"instance\": \"x\", \"type\": \"ipp._tcp\", \"error\": {\"kind\": \"daemonError\", \"message\": \"m\"}",
                "events[0].type: label \"ipp\""
            ),
            (
                "\"kind\": \"resolveFailed\", \"type\": \"_ipp._tcp\", \"error\": {\"kind\": \"daemonError\", \"message\": \"m\"}",
                "events[0]: kind \"resolveFailed\" needs \"instance\""
            ),
            (
                "\"kind\": \"sourceProgress\", \"role\": \"asks\", \"browseType\": \"b\", \"milestone\": \"allForNow\", \"services\": 0",
                "events[0]: kind \"sourceProgress\" needs \"source\""
            ),
            (
                "\"kind\": \"sourceProgress\", \"source\": \"\", \"role\": \"asks\", \"browseType\": \"b\", \"milestone\": \"allForNow\", \"services\": 0",
                "events[0].source: must be 1 to 64 bytes"
            ),
            (
                "\"kind\": \"sourceProgress\", \"source\": \"\(String(repeating: "m", count: 65))\", \"role\": \"asks\", \"browseType\": \"b\", \"milestone\": \"allForNow\", \"services\": 0",
                "events[0].source: must be 1 to 64 bytes"
            ),
            (
                "\"kind\": \"sourceProgress\", \"source\": \"mdns\", \"role\": \"asks\", \"browseType\": \"b\", \"milestone\": \"allForNow\"",
                "events[0]: kind \"sourceProgress\" needs \"services\""
            ),
            (
                "\"kind\": \"sourceProgress\", \"source\": \"mdns\", \"role\": \"asks\", \"browseType\": \"b\", \"milestone\": \"allForNow\", \"services\": -2",
                "events[0].services: must not be negative"
            ),
            (
                "\"kind\": \"sourceProgress\", \"source\": \"mdns\", \"browseType\": \"b\", \"milestone\": \"allForNow\", \"services\": 0",
                "events[0]: kind \"sourceProgress\" needs \"role\""
            ),
            (
                "\"kind\": \"sourceProgress\", \"source\": \"mdns\", \"role\": \"asks\", \"milestone\": \"allForNow\", \"services\": 0",
                "events[0]: kind \"sourceProgress\" needs \"browseType\""
            ),
            (
                "\"kind\": \"sourceProgress\", \"source\": \"mdns\", \"role\": \"asks\", \"browseType\": \"b\", \"services\": 0",
                "events[0]: kind \"sourceProgress\" needs \"milestone\""
            ),
            (
                "\"kind\": \"sourceProgress\", \"source\": \"mdns\", \"role\": \"boss\", \"browseType\": \"b\", \"milestone\": \"allForNow\", \"services\": 0",
                "events[0].role: "
            ),
        ])
    func badFields(fields: String, expected: String) {
        let error = Self.badInput(Self.file(fields))
        #expect(error?.kind == .badInput)
        #expect(error?.message.contains(expected) == true, "\(error?.message ?? "no error")")
    }

    @Test("the smallest and largest counts a file may give are taken")
    func countBounds() throws {
        let recording = try ReplayRecording(
            json: Data(
                ("{\"version\": 1, \"events\": ["
                    + "{\"at\": 0, \"kind\": \"copyLimit\", \"copies\": 1},"
                    + "{\"at\": 0, \"kind\": \"resolvesPending\", \"pending\": 0},"
                    + "{\"at\": 0, \"kind\": \"sourceProgress\", \"source\": \"\(String(repeating: "m", count: 64))\", \"role\": \"asks\","
                    + " \"browseType\": \"b\", \"milestone\": \"cacheWaitOver\", \"services\": 0}"
                    + "]}").utf8))
        #expect(
            recording.events.map(\.event) == [
                .copyLimit(1), .resolvesPending(0),
                .sourceProgress(
                    SourceProgress(
                        source: String(repeating: "m", count: 64), role: .asks, browseType: "b",
                        milestone: .cacheWaitOver, services: 0)),
            ])
    }
}
