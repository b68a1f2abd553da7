import CastDiscovery
import CastDiscoveryAvahi
import Foundation
import Testing

/// The Avahi backend against the lab's real avahi-daemon and simulated devices.
/// Run by `Tests/Scripts/avahi-lab-test.sh` inside the lab's sender namespace.
@Suite("Avahi backend in the lab", .serialized, .enabled(if: Lab.isRunning))
struct AvahiBackendLabTests {
    static let base = "_googlecast._tcp"

    /// The address without an IPv6 scope (avahi-browse prints none).
    static func unscoped(_ address: String) -> String {
        String(address.prefix { $0 != "%" })
    }

    @Test("every lab device resolves exactly as avahi-browse -rpkt sees it")
    func matchesAvahiBrowse() async throws {
        let lab = try Lab.devices()
        let collector = EventCollector(try AvahiBackend().events(browsing: [Self.base]))
        defer { collector.cancel() }
        let oracle = try AvahiBrowseOracle.browse(Self.base)
        #expect(Set(oracle.instances.keys) == Set(lab.map(\.instance)), "avahi-browse itself must see the lab")

        // avahi-browse resolves both copies to the IPv4 address; the backend also resolves the
        // IPv6 copy to the host's IPv6 address, which the lab assigned.
        func expectedAddresses(_ name: String) -> Set<String> {
            let ipv6 = lab.first { $0.instance == name }?.ipv6
            return (oracle.instances[name]?.addresses ?? []).union([ipv6].compactMap { $0 })
        }
        let complete = await collector.wait(seconds: 15) { c in
            let services = c.services
            return oracle.instances.keys.allSatisfy { name in
                services[name].map { Set($0.service.addresses.map { Self.unscoped($0.address) }) == expectedAddresses(name) } ?? false
            }
        }
        #expect(complete, "backend did not reach avahi-browse's view: \(collector.services.keys.sorted())")

        let services = collector.services
        #expect(Set(services.keys) == Set(oracle.instances.keys))
        for device in lab {
            let service = try #require(services[device.instance]?.service, "missing \(device.instance)")
            let expected = try #require(oracle.instances[device.instance])
            #expect(service.hostName == expected.hostName)
            #expect(service.port == expected.port)
            #expect(service.port == device.port)
            #expect(Set(service.addresses.map { Self.unscoped($0.address) }) == expectedAddresses(device.instance))
            #expect(Set(service.addresses.map { Self.unscoped($0.address) }) == Set([device.ipv4, device.ipv6].compactMap { $0 }))
            #expect(service.addresses.allSatisfy { $0.interfaceName == "lab0" && $0.interfaceIndex != nil })
            // TXT: the backend keeps wire order (the lab's fixture order); avahi-browse prints it reversed.
            #expect(service.txt.entries.map(\.bytes) == device.txt.map { Array($0.utf8) })
            #expect(service.txt.entries.map(\.bytes) == expected.txt.reversed())
        }
        let found = collector.all.filter { if case .found = $0 { true } else { false } }
        #expect(found.count == lab.count, "one found event per instance, no duplicates")
        #expect(collector.all.contains(.stateChanged(.running)))
        #expect(collector.all.contains(.allForNow(browseType: Self.base)))
        #expect(collector.all.contains(.cacheExhausted(browseType: Self.base)))
    }

    @Test("a subtype browse reports exactly the devices that support the app", arguments: ["233637DE", "CC1AD845"])
    func subtype(appID: String) async throws {
        let lab = try Lab.devices()
        let subtype = "_\(appID)._sub._googlecast._tcp"
        let collector = EventCollector(try AvahiBackend().events(browsing: [Self.base, subtype]))
        defer { collector.cancel() }
        let expected = Set(lab.filter { $0.subtypes.contains(appID) }.map(\.instance))
        let matched = { (c: EventCollector) in Set(c.services.filter { $0.value.browseTypes.contains(subtype) }.keys) }
        let done = await collector.wait(seconds: 15) { c in
            matched(c) == expected && c.services.count == lab.count
                && c.all.contains(.allForNow(browseType: subtype))
        }
        #expect(done)
        #expect(matched(collector) == expected)
        #expect(!expected.isEmpty)
    }

    @Test("TXT change, group leader move and goodbye are each observed")
    func scenario() async throws {
        let instance = "Scenario-Group-\(UInt32.random(in: 0...UInt32.max))"
        let leader = try #require(try Lab.devices().first { $0.instance.hasPrefix("Chromecast-") })
        let entry = """
        {"instance":"\(instance)","host":"scenario-leader.local","port":32101,\
        "txt":["id=0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0","ve=05","md=Google Cast Group","fn=Scenario","ca=198692","st=0","rs="],\
        "subtypes":["CC1AD845"]}
        """
        let collector = EventCollector(try AvahiBackend().events(browsing: [Self.base]))
        defer { collector.cancel() }
        try Lab.castlab("add", entry)
        #expect(await collector.wait(seconds: 15) { $0.services[instance] != nil }, "added device not found")
        // Let the device finish its start-up announcements, as real devices do before an app
        // launches: avahi keeps a TXT record it got less than a second before a newer one
        // (RFC 6762 section 10.2) and an open resolver then misses the change (README, limits).
        try await Task.sleep(for: .seconds(3))

        try Lab.castlab("set-txt", instance, "rs=YouTube", "st=1")
        #expect(await collector.wait(seconds: 15) { c in
            c.services[instance]?.service.txt.string(forKey: "rs") == "YouTube"
        }, "TXT change not seen")
        #expect(collector.services[instance]?.service.txt.string(forKey: "st") == "1")

        try Lab.castlab("move", instance, "--host", leader.host, "--port", "42999")
        #expect(await collector.wait(seconds: 15) { c in
            guard let s = c.services[instance]?.service else { return false }
            return s.hostName == leader.host && s.port == 42999
                && s.addresses.contains { Self.unscoped($0.address) == leader.ipv4 }
        }, "group move not seen: \(String(describing: collector.services[instance]?.service))")

        try Lab.castlab("remove", instance)
        #expect(await collector.wait(seconds: 15) { $0.services[instance] == nil }, "goodbye not seen")
        let removals = collector.all.filter { if case .removed(let s) = $0 { s.service.instanceName == instance } else { false } }
        #expect(removals.count == 1)
        let founds = collector.all.filter { if case .found(let s) = $0 { s.service.instanceName == instance } else { false } }
        #expect(founds.count == 1, "a move or TXT change is an update, not a new device")
    }

    @Test("a device that stops without a goodbye is removed when its records expire")
    func stopWithoutGoodbye() async throws {
        let instance = "Scenario-Silent-\(UInt32.random(in: 0...UInt32.max))"
        let entry = """
        {"instance":"\(instance)","host":"silent.local","port":8009,"ttl":4,\
        "txt":["id=5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a","ve=05","md=Chromecast","fn=Silent","ca=4101","st=0"],\
        "subtypes":["CC1AD845"]}
        """
        let collector = EventCollector(try AvahiBackend().events(browsing: [Self.base]))
        defer { collector.cancel() }
        try Lab.castlab("add", entry)
        #expect(await collector.wait(seconds: 15) { $0.services[instance] != nil })
        try Lab.castlab("stop", instance)
        #expect(await collector.wait(seconds: 30) { $0.services[instance] == nil }, "expired device still listed")
    }

    @Test("1,000 browses started and cancelled leave threads and memory flat")
    func startAndCancel() async throws {
        func threads() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1 }
        func residentKB() -> Int {
            let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
            let pages = Int(statm.split(separator: " ").dropFirst().first ?? "") ?? 0
            return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
        }
        func cycle(_ count: Int) async throws {
            for _ in 0..<count {
                let stream = try AvahiBackend().events(browsing: [Self.base])
                var iterator = stream.makeAsyncIterator()
                _ = await iterator.next()  // connected and browsing
            }
        }
        func settle(to baseline: Int) async -> Int {
            for _ in 0..<50 where threads() > baseline { try? await Task.sleep(for: .milliseconds(100)) }
            return threads()
        }
        try await cycle(50)  // warm up: allocator pools, dbus, the teardown queue's thread
        let baselineThreads = await settle(to: threads())
        let baselineMemory = residentKB()
        try await cycle(1000)
        let afterThreads = await settle(to: baselineThreads)
        let afterMemory = residentKB()
        #expect(afterThreads <= baselineThreads + 1, "threads: \(baselineThreads) -> \(afterThreads)")
        #expect(afterMemory - baselineMemory < 8 * 1024, "resident memory grew \(afterMemory - baselineMemory) KB")
    }
}
