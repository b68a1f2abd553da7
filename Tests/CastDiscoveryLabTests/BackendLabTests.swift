import CastDiscovery
import Foundation
import Testing

/// Every backend against the lab's devices, served by two independent mDNS stacks
/// (python-zeroconf and a real avahi-daemon), over IPv4 and IPv6, one of them IPv6 only.
/// Run by `Tests/Scripts/backend-lab-test.sh` inside the lab's sender namespace.
@Suite("Backends in the lab", .serialized, .enabled(if: Lab.isRunning))
struct BackendLabTests {
    static let base = "_googlecast._tcp"

    /// The address without an IPv6 scope (avahi-browse prints none).
    static func unscoped(_ address: String) -> String {
        String(address.prefix { $0 != "%" })
    }

    static func addresses(_ service: DiscoveredService?) -> Set<String> {
        Set(service?.service.addresses.map { unscoped($0.address) } ?? [])
    }

    @Test("every lab device resolves exactly as avahi-browse -rpkt sees it", arguments: LabBackend.allCases)
    func matchesAvahiBrowse(backend: LabBackend) async throws {
        let lab = try Lab.devices()
        #expect(Set(lab.map(\.stack)) == ["zeroconf", "avahi"], "the lab serves devices from both stacks")
        #expect(lab.contains { $0.ipv4 == nil }, "the lab has an IPv6-only device")
        let collector = EventCollector(try backend.makeWaitingForEveryAddress().serviceEvents(browsing: [Self.base]))
        defer { collector.cancel() }
        let oracle = try AvahiBrowseOracle.browse(Self.base)
        #expect(Set(oracle.instances.keys) == Set(lab.map(\.instance)), "avahi-browse itself must see the lab")

        // avahi-browse resolves both copies to the IPv4 address; the backends also resolve the
        // IPv6 copy to the host's IPv6 address, which the lab assigned.
        func expectedAddresses(_ name: String) -> Set<String> {
            let ipv6 = lab.first { $0.instance == name }?.ipv6
            return (oracle.instances[name]?.addresses ?? []).union([ipv6].compactMap { $0 })
        }
        // Every address, and the browse's all-for-now (avahi may say it just after the last
        // resolve: waiting for the addresses alone raced it, 1 run in 20 under load).
        let complete = await collector.wait(seconds: 15) { c in
            let services = c.services
            return oracle.instances.keys.allSatisfy { Self.addresses(services[$0]) == expectedAddresses($0) }
                && c.all.contains(.allForNow(browseType: Self.base))
        }
        #expect(complete, "\(backend) did not reach avahi-browse's view: \(collector.services.keys.sorted())")

        let services = collector.services
        #expect(Set(services.keys) == Set(oracle.instances.keys))
        for device in lab {
            let service = try #require(services[device.instance]?.service, "missing \(device.instance)")
            let expected = try #require(oracle.instances[device.instance])
            #expect(service.hostName == expected.hostName)
            #expect(service.port == expected.port)
            #expect(service.port == device.port)
            #expect(Self.addresses(services[device.instance]) == expectedAddresses(device.instance))
            #expect(Self.addresses(services[device.instance]) == Set([device.ipv4, device.ipv6].compactMap { $0 }))
            #expect(service.addresses.allSatisfy { $0.interfaceName == "lab0" && $0.interfaceIndex != nil })
            // TXT in wire order; avahi-browse prints it reversed.
            #expect(service.txt.entries.map(\.bytes) == expected.txt.reversed())
            if device.stack == "zeroconf" {
                // python-zeroconf sends the fixture's order on the wire.
                #expect(service.txt.entries.map(\.bytes) == device.txt.map { Array($0.utf8) })
            } else {
                #expect(Set(service.txt.entries.map(\.bytes)) == Set(device.txt.map { Array($0.utf8) }))
            }
        }
        let found = collector.all.filter { if case .found = $0 { true } else { false } }
        #expect(found.count == lab.count, "one found event per instance, no duplicates")
        // The aggregator's first report waits briefly for a device's other copies and families:
        // each device is first reported with every address it ends with.
        for case .found(let first) in collector.all {
            let name = first.service.instanceName
            #expect(
                Self.addresses(first) == expectedAddresses(name), "\(name) first found with \(Self.addresses(first))")
        }
        #expect(collector.all.contains(.stateChanged(.running)))
        #expect(collector.all.contains(.allForNow(browseType: Self.base)))
        if backend == .avahi { #expect(collector.all.contains(.cacheExhausted(browseType: Self.base))) }
    }

    @Test(
        "a subtype browse reports exactly the devices that support the app",
        arguments: LabBackend.allCases, ["233637DE", "CC1AD845"])
    func subtype(backend: LabBackend, appID: String) async throws {
        let lab = try Lab.devices()
        let subtype = "_\(appID)._sub._googlecast._tcp"
        let collector = EventCollector(try backend.make().serviceEvents(browsing: [Self.base, subtype]))
        defer { collector.cancel() }
        let expected = Set(lab.filter { $0.subtypes.contains(appID) }.map(\.instance))
        #expect(expected.contains { name in lab.contains { $0.instance == name && $0.stack == "avahi" } })
        let matched = { (c: EventCollector) in Set(c.services.filter { $0.value.browseTypes.contains(subtype) }.keys) }
        let done = await collector.wait(seconds: 15) { c in
            matched(c) == expected && c.services.count == lab.count
                && c.all.contains(.allForNow(browseType: subtype))
        }
        #expect(done)
        #expect(matched(collector) == expected)
        #expect(!expected.isEmpty)
    }

    @Test("an IPv6-only device is listed with its one IPv6 address", arguments: LabBackend.allCases)
    func ipv6Only(backend: LabBackend) async throws {
        let device = try #require(try Lab.devices().first { $0.ipv4 == nil })
        let collector = EventCollector(try backend.make().serviceEvents(browsing: [Self.base]))
        defer { collector.cancel() }
        #expect(await collector.wait(seconds: 15) { $0.services[device.instance] != nil })
        let service = try #require(collector.services[device.instance]?.service)
        #expect(service.addresses.map { Self.unscoped($0.address) } == [device.ipv6].compactMap { $0 })
        #expect(service.addresses.allSatisfy { $0.family == .ipv6 })
    }

    /// A new device entry for `stack`, on a host of its own (avahi: static host names).
    static func entry(_ instance: String, host: String, stack: String, port: Int = 32101, ttl: Int? = nil) -> String {
        """
        {"instance":"\(instance)","host":"\(host)","port":\(port),"stack":"\(stack)",\
        \(ttl.map { "\"ttl\":\($0)," } ?? "")\
        "txt":["id=0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0","ve=05","md=Google Cast Group","fn=Scenario","ca=198692","st=0","rs="],\
        "subtypes":["CC1AD845"]}
        """
    }

    @Test(
        "TXT change, group leader move and goodbye are each observed",
        arguments: LabBackend.allCases, ["zeroconf", "avahi"])
    func scenario(backend: LabBackend, stack: String) async throws {
        let instance = "Scenario-Group-\(UInt32.random(in: 0...UInt32.max))"
        let leader = try #require(
            try Lab.devices(stack: stack).first { $0.instance.hasPrefix("Chromecast-") && $0.ipv4 != nil })
        let collector = EventCollector(try backend.make().serviceEvents(browsing: [Self.base]))
        defer { collector.cancel() }
        try Lab.castlab(
            "add", Self.entry(instance, host: "scenario-\(stack)-\(UInt16.random(in: 1...9999)).local", stack: stack))
        #expect(await collector.wait(seconds: 15) { $0.services[instance] != nil }, "added device not found")
        // Let the device finish its start-up announcements, as real devices do before an app
        // launches: avahi keeps a TXT record it got less than a second before a newer one
        // (RFC 6762 section 10.2) and an open resolver then misses the change (docs/backends.md,
        // "The Avahi backend", known limits).
        try await Task.sleep(for: .seconds(3))

        try Lab.castlab("set-txt", instance, "rs=YouTube", "st=1")
        #expect(
            await collector.wait(seconds: 15) { c in
                c.services[instance]?.service.txt.string(forKey: "rs") == "YouTube"
            }, "TXT change not seen")
        #expect(collector.services[instance]?.service.txt.string(forKey: "st") == "1")

        // dns_sd keeps only a TXT query open per instance (each ref costs a thread and a D-Bus
        // connection): it does not follow a move (docs/backends.md, "The dns_sd backend").
        if backend != .dnssd {
            try Lab.castlab("move", instance, "--host", leader.host, "--port", "42999")
            #expect(
                await collector.wait(seconds: 15) { c in
                    guard let s = c.services[instance]?.service else { return false }
                    return s.hostName == leader.host && s.port == 42999
                        && s.addresses.contains { Self.unscoped($0.address) == leader.ipv4 }
                }, "group move not seen: \(String(describing: collector.services[instance]?.service))")
        }

        let removeStarted = ContinuousClock.now
        try Lab.castlab("remove", instance)
        #expect(await collector.wait(seconds: 15) { $0.services[instance] == nil }, "goodbye not seen")
        if backend == .mdns {
            // A goodbye takes one second (RFC 6762 section 10.1); castlab's own work is in this too.
            #expect(ContinuousClock.now - removeStarted < .seconds(3))
        }
        let removals = collector.all.filter {
            if case .removed(let s) = $0 { s.service.instanceName == instance } else { false }
        }
        let founds = collector.all.filter {
            if case .found(let s) = $0 { s.service.instanceName == instance } else { false }
        }
        if stack == "zeroconf" {
            #expect(removals.count == 1)
            #expect(founds.count == 1, "a move or TXT change is an update, not a new device")
        } else {
            // avahi-daemon withdraws an edited service (goodbyes) and publishes it again after
            // probing it anew, which can take longer than the second a goodbye leaves a record:
            // a listener may then rightly see the device go and come back, once per edit.
            #expect(
                removals.count == founds.count && (1...3).contains(founds.count),
                "found \(founds.count) times, removed \(removals.count) times")
        }
    }

    @Test("a device that stops without a goodbye is removed when its records expire", arguments: LabBackend.allCases)
    func stopWithoutGoodbye(backend: LabBackend) async throws {
        let instance = "Scenario-Silent-\(UInt32.random(in: 0...UInt32.max))"
        let collector = EventCollector(try backend.make().serviceEvents(browsing: [Self.base]))
        defer { collector.cancel() }
        try Lab.castlab(
            "add", Self.entry(instance, host: "silent-\(UInt16.random(in: 1...9999)).local", stack: "zeroconf", ttl: 4))
        #expect(await collector.wait(seconds: 15) { $0.services[instance] != nil })
        try Lab.castlab("stop", instance)
        #expect(await collector.wait(seconds: 30) { $0.services[instance] == nil }, "expired device still listed")
    }

    /// The querier's rule (RFC 6762 section 10.5). Not asked of the Avahi backend: avahi-daemon
    /// 0.8 in the lab kept such a device past 20 s, to its TTL (75 minutes for avahi's records).
    @Test(
        "a device that stops without a goodbye goes about 10 s after queries it leaves unanswered",
        arguments: [LabBackend.mdns], ["zeroconf", "avahi"])
    func passiveObservationOfFailure(backend: LabBackend, stack: String) async throws {
        let instance = "Scenario-Vanish-\(UInt32.random(in: 0...UInt32.max))"
        let collector = EventCollector(try backend.make().serviceEvents(browsing: [Self.base]))
        defer {
            collector.cancel()
            // The sender's avahi-daemon keeps the vanished device to its TTL; the suites after
            // this one compare with the lab's list, so it starts again with an empty cache.
            _ = try? Lab.castlab("daemon", "restart")
        }
        // A normal TTL (120 s, or avahi's 75 min): expiry alone would take far longer.
        try Lab.castlab(
            "add", Self.entry(instance, host: "vanish-\(stack)-\(UInt16.random(in: 1...9999)).local", stack: stack))
        #expect(await collector.wait(seconds: 15) { $0.services[instance] != nil })
        let others = Set(collector.services.keys).subtracting([instance])
        try await Task.sleep(for: .seconds(2))
        try Lab.castlab("stop", instance)
        // Another host on the link asks for the browse, twice, without known answers.
        let asked = ContinuousClock.now
        try Lab.castlab("inject", "query", "--repeat", "2", "--interval", "1")
        #expect(await collector.wait(seconds: 20) { $0.services[instance] == nil }, "vanished device still listed")
        let took = ContinuousClock.now - asked
        #expect(took < .seconds(15), "removed \(took) after the first unanswered query")
        #expect(others.isSubset(of: Set(collector.services.keys)), "devices that answered stay listed")
    }

    /// A device whose records come after its resolve timed out (under load, the answers to the
    /// first questions are lost): the backend keeps asking (avahi-daemon's resolver and the
    /// querier go on; dns_sd's resolve ends, and is started again), and lists it when they come.
    @Test("a device whose resolve timed out is listed when its records come later", arguments: LabBackend.allCases)
    func lateAnswer(backend: LabBackend) async throws {
        let instance = "Scenario-Late-\(backend.rawValue)-\(UInt32.random(in: 0...UInt32.max))"
        let collector = EventCollector(try backend.make().serviceEvents(browsing: [Self.base]))
        defer {
            collector.cancel()
            // The sender's avahi-daemon keeps the injected PTR to its TTL; the suites after this
            // one compare with the lab's list, so it starts again with an empty cache.
            _ = try? Lab.castlab("daemon", "restart")
        }
        func failures(_ c: EventCollector) -> Int {
            c.all.count { if case .resolveFailed(let key, _) = $0 { key.name == instance } else { false } }
        }
        // Only the PTR: the instance is announced, and nobody answers its SRV and TXT.
        try Lab.castlab("inject", "ptr", "--instance", instance)
        #expect(await collector.wait(seconds: 15) { failures($0) > 0 }, "the resolve did not time out")
        #expect(collector.services[instance] == nil)
        // Now the records come, unasked (an announcement), as a late answer would.
        try Lab.castlab("inject", "device", "--instance", instance)
        #expect(await collector.wait(seconds: 10) { $0.services[instance] != nil }, "the device was not listed")
    }

    @Test("1,000 browses started and cancelled leave threads and memory flat", arguments: LabBackend.allCases)
    func startAndCancel(backend: LabBackend) async throws {
        func threads() -> Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1 }
        func residentKB() -> Int {
            let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
            let pages = Int(statm.split(separator: " ").dropFirst().first ?? "") ?? 0
            return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
        }
        func cycle(_ count: Int) async throws {
            for _ in 0..<count {
                let stream = try backend.make().serviceEvents(browsing: [Self.base])
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
