import CastDiscovery
import CastDiscoveryAvahi
import CastDiscoveryDNSSD
import CastDiscoveryMDNS
import Foundation
import Testing

/// The backends over avahi-daemon (Avahi, and dns_sd through the compatibility library) while
/// the lab's avahi-daemon is killed, restarted and stopped.
/// Run by `Tests/Scripts/backend-lab-test.sh` inside the lab's sender namespace, after the
/// other lab suites (it disturbs the daemon they use).
@Suite("Daemon backends across daemon restarts", .serialized, .enabled(if: Lab.isRunning))
struct AvahiDaemonLabTests {
    static let base = "_googlecast._tcp"

    static func count(_ collector: EventCollector, _ match: (BackendEvent) -> Bool) -> Int {
        collector.all.filter(match).count
    }

    @Test(
        "a killed and restarted daemon: loss reported, every device removed, then found again once",
        arguments: [LabBackend.avahi, .dnssd])
    func restart(backend: LabBackend) async throws {
        let lab = Set(try Lab.devices().map(\.instance))
        let collector = EventCollector(try backend.make().serviceEvents(browsing: [Self.base]))
        defer { collector.cancel() }
        #expect(await collector.wait(seconds: 15) { Set($0.services.keys) == lab })

        try Lab.castlab("daemon", "kill")
        #expect(await collector.wait(seconds: 10) { $0.all.contains(.stateChanged(.daemonLost)) }, "loss not reported")
        #expect(await collector.wait(seconds: 5) { $0.services.isEmpty }, "services not cleared after the loss")

        try Lab.castlab("daemon", "start")
        #expect(
            await collector.wait(seconds: 30) { Set($0.services.keys) == lab },
            "devices not back: \(collector.services.keys.sorted())")

        let events = collector.all
        let lossIndex = try #require(events.firstIndex(of: .stateChanged(.daemonLost)))
        for name in lab {
            let found = Self.count(collector) {
                if case .found(let s) = $0 { s.service.instanceName == name } else { false }
            }
            let removed = Self.count(collector) {
                if case .removed(let s) = $0 { s.service.instanceName == name } else { false }
            }
            #expect(found == 2 && removed == 1, "\(name): found \(found) times, removed \(removed) times")
        }
        // Every removal comes after the loss and before the reconnection's first found.
        let removals = events.indices.filter { if case .removed = events[$0] { true } else { false } }
        #expect(removals.allSatisfy { $0 > lossIndex })
        #expect(events[lossIndex...].contains(.stateChanged(.running)))
        // No instance is ever found twice without a removal in between.
        var listed = Set<String>()
        for event in events {
            switch event {
            case .found(let s): #expect(listed.insert(s.service.instanceName).inserted, "duplicate found")
            case .removed(let s): #expect(listed.remove(s.service.instanceName) != nil, "removal of an unknown service")
            default: break
            }
        }
    }

    @Test("no daemon: a typed error that says how to start it, at once; waiting mode connects when it comes")
    func noDaemon() async throws {
        try Lab.castlab("daemon", "stop")
        defer { _ = try? Lab.castlab("daemon", "start") }
        do {
            _ = try AvahiBackend().serviceEvents(browsing: [Self.base])
            Issue.record("browsing without a daemon did not throw")
        } catch {
            #expect(error.kind == .discoveryServiceMissing)
            #expect(error.description.contains("avahi-daemon is not running"))
            #expect(error.fix?.contains("start it with") == true)
        }

        let lab = Set(try Lab.devices().map(\.instance))
        let collector = EventCollector(try AvahiBackend(waitForDaemon: true).serviceEvents(browsing: [Self.base]))
        defer { collector.cancel() }
        #expect(await collector.wait(seconds: 5) { $0.all.contains(.stateChanged(.connecting)) })
        try Lab.castlab("daemon", "start")
        #expect(await collector.wait(seconds: 30) { Set($0.services.keys) == lab })
        #expect(collector.all.contains(.stateChanged(.running)))
    }

    @Test("the probe asks the bus: a stopped daemon is missing, a started one is there")
    func probe() throws {
        try Lab.castlab("daemon", "stop")
        defer { _ = try? Lab.castlab("daemon", "start") }
        let missing = AvahiBackend.unavailability()
        #expect(missing?.kind == .discoveryServiceMissing)
        #expect(missing?.description.contains("avahi-daemon is not running") == true)
        try Lab.castlab("daemon", "start")
        #expect(AvahiBackend.unavailability() == nil)
    }

    @Test(
        "beside the querier, a daemon that is not there is absent from the browse, and the querier lists every device")
    func absentBesideQuerier() async throws {
        try Lab.castlab("daemon", "stop")
        defer { _ = try? Lab.castlab("daemon", "start") }
        let lab = Set(try Lab.devices().map(\.instance))
        let merged = MergedBackend([
            MergedBackend.Source("mdns", MDNSBackend(), role: .asks),
            MergedBackend.Source("avahi", AvahiBackend(), role: .cache),
        ])
        // The daemon's client connects on its own thread: the start does not throw.
        let collector = EventCollector(try merged.serviceEvents(browsing: [Self.base]))
        defer { collector.cancel() }
        #expect(await collector.wait(seconds: 15) { Set($0.services.keys) == lab })
        #expect(
            await collector.wait(seconds: 5) { collector in
                collector.all.contains { event in
                    if case .sourceProgress(let step) = event {
                        step.source == "avahi" && step.milestone == .absent
                    } else {
                        false
                    }
                }
            }, "the daemon's absence not said")
        #expect(
            !collector.all.contains { if case .stateChanged(.failed) = $0 { true } else { false } }, "the merge failed")
    }

    @Test("dns_sd without a daemon: a typed error that says how to start it, at once")
    func dnssdNoDaemon() async throws {
        try Lab.castlab("daemon", "stop")
        defer { _ = try? Lab.castlab("daemon", "start") }
        do {
            _ = try DNSSDBackend().serviceEvents(browsing: [Self.base])
            Issue.record("browsing without a daemon did not throw")
        } catch {
            #expect(error.kind == .discoveryServiceMissing)
            #expect(error.description.contains("avahi-daemon is not running"))
            #expect(error.fix?.contains("start it with") == true)
        }
        #expect(DNSSDBackend().unavailability()?.kind == .discoveryServiceMissing)
    }
}
