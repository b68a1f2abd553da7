import CastDiscovery
import CastDiscoveryAvahi
import CastDiscoveryMDNS
import Foundation
import Testing

/// What only the built-in mDNS querier does: it shares the link with avahi-daemon, and follows
/// interfaces that come and go.
@Suite("mDNS querier in the lab", .serialized, .enabled(if: Lab.isRunning))
struct MDNSQuerierLabTests {
    static let base = "_googlecast._tcp"

    @Test("beside avahi-daemon in the same namespace, both see every device while both run")
    func coexistence() async throws {
        let lab = Set(try Lab.devices().map(\.instance))
        let querier = EventCollector(try MDNSBackend().serviceEvents(browsing: [Self.base]))
        let avahi = EventCollector(try AvahiBackend().serviceEvents(browsing: [Self.base]))
        defer {
            querier.cancel()
            avahi.cancel()
        }
        #expect(
            await querier.wait(seconds: 15) { Set($0.services.keys) == lab },
            "querier: \(querier.services.keys.sorted())")
        #expect(
            await avahi.wait(seconds: 15) { Set($0.services.keys) == lab }, "avahi: \(avahi.services.keys.sorted())")
        // And they keep seeing them: neither takes the port or the group from the other.
        try await Task.sleep(for: .seconds(3))
        let oracle = try AvahiBrowseOracle.browse(Self.base)
        #expect(Set(querier.services.keys) == lab)
        #expect(Set(avahi.services.keys) == lab)
        #expect(Set(oracle.instances.keys) == lab)
        let removed = (querier.all + avahi.all).filter { if case .removed = $0 { true } else { false } }
        #expect(removed.isEmpty)
    }

    @Test("an interface added during a watch is used; when it goes, only its copies go")
    func interfaceAddedAndRemoved() async throws {
        let lab = try Lab.devices()
        let collector = EventCollector(try MDNSBackend().serviceEvents(browsing: [Self.base]))
        defer {
            collector.cancel()
            _ = try? Lab.castlab("link", "del")
        }
        #expect(await collector.wait(seconds: 15) { Set($0.services.keys) == Set(lab.map(\.instance)) })
        func onLab1(_ c: EventCollector) -> Set<String> {
            Set(c.services.filter { $0.value.service.addresses.contains { $0.interfaceName == "lab1" } }.keys)
        }
        #expect(onLab1(collector).isEmpty)

        try Lab.castlab("link", "add")
        // The interface list is read every 2 s; the new link is asked at once.
        let everywhere = Set(lab.map(\.instance))
        #expect(
            await collector.wait(seconds: 15) { onLab1($0) == everywhere }, "on lab1: \(onLab1(collector).sorted())")
        let lab1 = collector.services.values.flatMap { $0.service.addresses.filter { $0.interfaceName == "lab1" } }
        #expect(lab1.allSatisfy { $0.interfaceIndex != nil })

        try Lab.castlab("link", "del")
        #expect(
            await collector.wait(seconds: 15) { onLab1($0).isEmpty }, "still on lab1: \(onLab1(collector).sorted())")
        #expect(Set(collector.services.keys) == everywhere, "the devices stay, through lab0")
        let removed = collector.all.filter { if case .removed = $0 { true } else { false } }
        #expect(removed.isEmpty, "no device was removed, only copies")
    }
}

/// The querier while a lab namespace sends hostile traffic (Scripts/lab/hostile.py). Runs last:
/// the flood also fills the sender's avahi-daemon cache.
@Suite("mDNS querier under hostile traffic", .serialized, .enabled(if: Lab.isRunning))
struct MDNSHostileLabTests {
    static let base = "_googlecast._tcp"

    static func residentKB() -> Int {
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = Int(statm.split(separator: " ").dropFirst().first ?? "") ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
    }

    /// Injects an on-link device after what was sent so far and waits until it is listed: the
    /// querier reads its socket in order, so everything sent before it has been handled (an
    /// event to wait for, instead of a fixed sleep).
    static func handledEverythingSent(_ collector: EventCollector, marker: String) async throws -> Bool {
        try Lab.castlab("inject", "device", "--source", "onlink", "--instance", marker)
        return await collector.wait(seconds: 10) { $0.services[marker] != nil }
    }

    static func statistics(_ c: EventCollector) -> BackendStatistics? {
        c.all.reversed().lazy.compactMap { if case .statistics(let s) = $0 { s } else { nil } }.first
    }

    @Test("malformed packets, an off-link device and floods: the watch survives, lists the real devices, stays bounded")
    func hostileTraffic() async throws {
        let lab = Set(try Lab.devices().map(\.instance))
        let collector = EventCollector(try MDNSBackend().serviceEvents(browsing: [Self.base]))
        defer { collector.cancel() }
        #expect(await collector.wait(seconds: 15) { Set($0.services.keys) == lab })
        let baseline = Self.residentKB()

        // Every kind of packet the codec reads nothing from, and one whose bad record is skipped.
        try Lab.castlab("inject", "malformed", "--repeat", "3")
        #expect(
            await collector.wait(seconds: 5) {
                (Self.statistics($0)?.malformedPackets ?? 0) >= 2 * 3 * 16
                    && (Self.statistics($0)?.malformedRecords ?? 0) >= 2 * 3
            }, "malformed: \(String(describing: Self.statistics(collector)))")
        #expect(Set(collector.services.keys) == lab)

        // A valid device from outside the link's subnets is dropped; the same from on-link is listed.
        try Lab.castlab("inject", "device", "--source", "offlink", "--instance", "Intruder")
        try Lab.castlab("inject", "device", "--source", "onlink", "--instance", "Neighbour")
        #expect(await collector.wait(seconds: 5) { $0.services["Neighbour"] != nil }, "on-link device not listed")
        #expect(await collector.wait(seconds: 5) { (Self.statistics($0)?.offLinkPackets ?? 0) >= 2 })
        #expect(collector.services["Intruder"] == nil, "an off-link answer must not be listed")
        // A goodbye from off-link does not remove a device either.
        try Lab.castlab("inject", "goodbye", "--source", "offlink", "--instance", "Neighbour")
        #expect(try await Self.handledEverythingSent(collector, marker: "Marker-1"), "the querier fell behind")
        #expect(collector.services["Neighbour"] != nil, "an off-link goodbye removed a device")

        // Goodbyes for records never held are not cached.
        try Lab.castlab("inject", "ttl0-flood", "--count", "5000")
        #expect(
            try await Self.handledEverythingSent(collector, marker: "Marker-2"), "the querier fell behind the flood")
        #expect(lab.isSubset(of: Set(collector.services.keys)))

        // 100,000 unique fake devices (short TTL): the cache bound holds, the real devices stay.
        try Lab.castlab("inject", "unique-flood", "--count", "100000", "--rate", "4000", "--ttl", "10")
        #expect(
            await collector.wait(seconds: 10) { (Self.statistics($0)?.droppedRecords ?? 0) > 0 },
            "the flood never reached the cache bound: \(String(describing: Self.statistics(collector)))")
        let grown = Self.residentKB() - baseline
        #expect(grown < 64 * 1024, "resident memory grew \(grown) KB under the flood")
        #expect(lab.isSubset(of: Set(collector.services.keys)), "a real device was lost in the flood")
        let listed = collector.services.count
        let injected: Set<String> = ["Neighbour", "Marker-1", "Marker-2"]
        #expect(
            listed - lab.count - injected.count <= 2 * 4096 / 4,
            "more fake devices listed (\(listed)) than the cache can hold")
        // The fakes expire with their TTL; the real devices, refreshed all along, stay.
        let expected = lab.union(injected)
        #expect(
            await collector.wait(seconds: 20) { Set($0.services.keys) == expected },
            "after the flood: \(Self.difference(Set(collector.services.keys), expected)); \(String(describing: Self.statistics(collector)))"
        )
    }

    /// What a listed set lacks and has beyond the expected one, a few names of each.
    static func difference(_ listed: Set<String>, _ expected: Set<String>) -> String {
        let missing = expected.subtracting(listed).sorted(), extra = listed.subtracting(expected).sorted()
        return
            "\(listed.count) listed; missing \(missing.count) \(missing.prefix(5)); beyond \(extra.count) \(extra.prefix(5))"
    }
}
