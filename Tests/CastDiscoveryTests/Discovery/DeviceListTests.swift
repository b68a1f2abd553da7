import CastDiscovery
import Testing

@Suite("DeviceList")
struct DeviceListTests {
    typealias S = TestService

    static func names(_ list: DeviceList) -> [String] { list.devices.map(\.friendlyName) }

    @Test("one device per Cast id across instance names, hosts and address families")
    func oneDevicePerID() {
        var list = DeviceList()
        let id = S.uuid(1)
        let changes13 = list.apply(
            .found(S.make("Group", id: id, name: "Home", host: "a.local", port: 32001, address: "10.0.0.1")))
        #expect(
            changes13
                .map(\.device.port) == [32001])
        let second = list.apply(
            .found(
                S.make("Group-1", id: id.uppercased(), name: "Home", host: "a.local", port: 32001, address: "fd00::1")))
        #expect(second == [.updated(list.devices[0], at: 0)])
        #expect(list.count == 1)
        #expect(list.devices[0].instanceName == "Group-1")
        #expect(list.devices[0].addresses.map(\.address) == ["fd00::1"])
        // The leader moves: host, port and addresses follow the newest answer.
        _ = list.apply(
            .updated(S.make("Group", id: id, name: "Home", host: "b.local", port: 42001, address: "10.0.0.2")))
        #expect(list.count == 1)
        #expect(list.devices[0].hostName == "b.local")
        #expect(list.devices[0].port == 42001)
        #expect(list.devices[0].networkAddress?.address == "10.0.0.2")
        // Gone only when the last instance goes.
        let first = list.apply(.removed(S.make("Group", id: id, name: "Home")))
        #expect(list.count == 1)
        #expect(first.map(\.device.instanceName) == ["Group-1"])
        let last = list.apply(.removed(S.make("Group-1", id: id, name: "Home")))
        #expect(list.count == 0)
        guard case .removed(let device, at: 0)? = last.first else {
            Issue.record("expected a removal, got \(last)"); return
        }
        #expect(device.friendlyName == "Home")
    }

    @Test("the id in 8-4-4-4-12 form and in 32 hex is the same device; lookups accept both")
    func uniqueIDForms() {
        var list = DeviceList()
        _ = list.apply(.found(S.make("G", id: "3F2B7C9A-1D4E-4B8F-9A6C-2E5D8F1B3C7A", name: "Downstairs")))
        _ = list.apply(.found(S.make("G-1", id: "3f2b7c9a1d4e4b8f9a6c2e5d8f1b3c7a", name: "Downstairs")))
        #expect(list.count == 1)
        #expect(list.device(withUniqueID: "googlecast:3f2b7c9a1d4e4b8f9a6c2e5d8f1b3c7a")?.instanceName == "G-1")
        #expect(list.device(withUniqueID: "3F2B7C9A-1D4E-4B8F-9A6C-2E5D8F1B3C7A") != nil)
        #expect(list.index(ofUniqueID: "googlecast:3f2b7c9a1d4e4b8f9a6c2e5d8f1b3c7a") == 0)
        #expect(list.device(withUniqueID: "googlecast:00000000000000000000000000000000") == nil)
    }

    @Test("sorted by case-insensitive name, then exact name, then unique id")
    func sortRule() {
        var list = DeviceList()
        for (n, name) in ["kitchen", "Bedroom", "Kitchen", "attic", "Äpfel", "kitchen", "Zoo"].enumerated() {
            _ = list.apply(.found(S.make("i\(n)", id: S.uuid(10 - n), name: name)))
        }
        #expect(Self.names(list) == ["attic", "Bedroom", "Kitchen", "kitchen", "kitchen", "Zoo", "Äpfel"])
        // The two "kitchen" devices are ordered by unique id (uuid(5) before uuid(10)).
        #expect(list.devices[3].id.normalized == S.uuid(5))
        #expect(list.devices[4].id.normalized == S.uuid(10))
    }

    @Test("a rename that re-sorts is one update-and-move; one that does not is an update")
    func moves() {
        var list = DeviceList()
        _ = list.apply(.found(S.make("a", id: S.uuid(1), name: "Alpha")))
        _ = list.apply(.found(S.make("b", id: S.uuid(2), name: "Beta")))
        _ = list.apply(.found(S.make("c", id: S.uuid(3), name: "Gamma")))
        let moved = list.apply(.updated(S.make("a", id: S.uuid(1), name: "Omega")))
        #expect(moved == [.updatedAndMoved(list.devices[2], from: 0, to: 2)])
        #expect(Self.names(list) == ["Beta", "Gamma", "Omega"])
        let kept = list.apply(.updated(S.make("b", id: S.uuid(2), name: "Beta", status: "1")))
        #expect(kept == [.updated(list.devices[0], at: 0)])
        let changes74 = list.apply(.updated(S.make("b", id: S.uuid(2), name: "Beta", status: "1")))
        #expect(changes74.isEmpty)
    }

    @Test("with criteria, only devices in a subtype browse are listed; leaving or joining it removes or inserts")
    func criteriaFilter() {
        var list = DeviceList(criteria: .defaultMediaReceiver)
        let changes81 = list.apply(.found(S.make("a", id: S.uuid(1), name: "TV")))
        #expect(changes81.isEmpty)
        let changes83 = list.apply(.found(S.make("y", id: S.uuid(2), name: "YT only", browse: [S.base, S.youTube])))
        #expect(changes83.isEmpty)
        let joined = list.apply(.updated(S.make("a", id: S.uuid(1), name: "TV", browse: [S.base, S.dmr.lowercased()])))
        #expect(joined.count == 1)
        #expect(joined.first.map { if case .inserted(_, at: 0) = $0 { true } else { false } } == true)
        let left = list.apply(.updated(S.make("a", id: S.uuid(1), name: "TV", browse: [S.base])))
        #expect(left.count == 1)
        #expect(left.first.map { if case .removed(_, at: 0) = $0 { true } else { false } } == true)
        #expect(list.count == 0)

        var all = DeviceList()
        _ = all.apply(.found(S.make("a", id: S.uuid(1), name: "TV")))
        #expect(all.count == 1)
    }

    @Test("an instance whose id changes moves to the other device")
    func idChange() {
        var list = DeviceList()
        _ = list.apply(.found(S.make("x", id: S.uuid(1), name: "One")))
        _ = list.apply(.found(S.make("y", id: S.uuid(1), name: "One")))
        let changes = list.apply(.updated(S.make("x", id: S.uuid(2), name: "Two")))
        // "One" still has instance y (the newer answer), so it does not change; "Two" is inserted.
        #expect(list.count == 2)
        #expect(changes.map(\.device.friendlyName) == ["Two"])
        #expect(list.device(withUniqueID: S.uuid(1))?.instanceName == "y")
        let gone = list.apply(.updated(S.make("y", id: S.uuid(2), name: "Two")))
        #expect(gone.map(\.device.friendlyName) == ["One", "Two"])
        #expect(list.count == 1)
    }

    @Test("a new run keeps the last run's devices until the base all-for-now, which removes the unseen")
    func runs() {
        var list = DeviceList(criteria: .defaultMediaReceiver)
        _ = list.apply(.found(S.make("a", id: S.uuid(1), name: "A", browse: [S.base, S.dmr])))
        _ = list.apply(.found(S.make("b", id: S.uuid(2), name: "B", browse: [S.base, S.dmr])))
        list.endRun()
        #expect(list.count == 2)
        let began = list.beginRun()
        #expect(began)
        // Seen again through the base browse only so far: still listed (old browses carried).
        let changes118 = list.apply(.found(S.make("a", id: S.uuid(1), name: "A", browse: [S.base])))
        #expect(changes118.isEmpty)
        let changes120 = list.apply(.allForNow(browseType: S.dmr))
        #expect(changes120.isEmpty)
        let sweep = list.apply(.allForNow(browseType: S.base))
        // B was not seen: removed; A is now judged by this run's browses only: removed too.
        #expect(sweep.count == 2)
        #expect(list.count == 0)
        let beganAgain = list.beginRun()
        #expect(!beganAgain)
    }

    @Test("devices seen again survive the sweep; a second all-for-now changes nothing")
    func runsKeepSeen() {
        var list = DeviceList()
        _ = list.apply(.found(S.make("a", id: S.uuid(1), name: "A")))
        _ = list.apply(.found(S.make("b", id: S.uuid(2), name: "B")))
        list.endRun()
        let began = list.beginRun()
        #expect(began)
        _ = list.apply(.found(S.make("a", id: S.uuid(1), name: "A")))
        let sweep = list.apply(.allForNow(browseType: S.base))
        #expect(sweep.map(\.device.friendlyName) == ["B"])
        _ = list.apply(.found(S.make("b", id: S.uuid(2), name: "B")))
        let changes140 = list.apply(.allForNow(browseType: S.base))
        #expect(changes140.isEmpty)
        #expect(Self.names(list) == ["A", "B"])
    }

    @Test("events that are not about services change nothing")
    func otherEvents() {
        var list = DeviceList()
        _ = list.apply(.found(S.make("a", id: S.uuid(1), name: "A")))
        let changes149 = list.apply(.stateChanged(.daemonLost))
        #expect(changes149.isEmpty)
        let changes151 = list.apply(.cacheExhausted(browseType: S.base))
        #expect(changes151.isEmpty)
        let changes153 = list.apply(.allForNow(browseType: S.base))
        #expect(changes153.isEmpty)
        let changes155 = list.apply(.removed(S.make("zzz", id: S.uuid(9), name: "Z")))
        #expect(changes155.isEmpty)
        #expect(list.count == 1)
    }

    @Test("a filter lists only devices with an address it keeps, and every index is an index of that list")
    func filteredIndices() {
        var list = DeviceList(filter: DeviceFilter(families: [.ipv6]))
        // Sorted before the IPv6 device but IPv4 only: not listed, so it takes no index.
        let hidden = list.apply(.found(S.make("a", id: S.uuid(1), name: "Attic", address: "10.0.0.1")))
        #expect(hidden.isEmpty)
        let inserted = list.apply(.found(S.make("k", id: S.uuid(2), name: "Kitchen", address: "fd00::2")))
        #expect(inserted == [.inserted(list.devices[0], at: 0)])
        let updated = list.apply(.updated(S.make("k", id: S.uuid(2), name: "Kitchen", address: "fd00::2", status: "1")))
        #expect(updated == [.updated(list.devices[0], at: 0)])
        // The IPv6 device loses its IPv6 address: it leaves the list; gaining one brings it back.
        let lost = list.apply(.updated(S.make("k", id: S.uuid(2), name: "Kitchen", address: "10.0.0.2")))
        #expect(lost.map(\.device.friendlyName) == ["Kitchen"])
        #expect(list.count == 0)
        let back = list.apply(.updated(S.make("a", id: S.uuid(1), name: "Attic", address: "fd00::1")))
        #expect(back == [.inserted(list.devices[0], at: 0)])
        #expect(list.devices[0].addresses.map(\.address) == ["fd00::1"])
    }

    @Test("a filter shows a device with only the addresses it keeps")
    func filteredAddresses() {
        var list = DeviceList(filter: DeviceFilter(interfaceName: "eth1"))
        var service = S.make("a", id: S.uuid(1), name: "Attic")
        service.service.addresses = [
            ServiceAddress("10.0.0.1", interfaceName: "eth0", interfaceIndex: 2)!,
            ServiceAddress("10.1.0.1", interfaceName: "eth1", interfaceIndex: 3)!,
            ServiceAddress("fe80::1%eth1", interfaceName: "eth1", interfaceIndex: 3)!,
        ]
        _ = list.apply(.found(service))
        #expect(list.devices.first?.addresses.map(\.address) == ["10.1.0.1", "fe80::1%eth1"])
        #expect(list.device(withUniqueID: S.uuid(1))?.addresses.count == 2)
    }
}
