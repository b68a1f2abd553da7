import CastDiscovery
import CastDiscoveryAvahi
import Foundation
import Synchronization
import Testing

/// The discovery manager over the Avahi backend, against the lab's devices.
@Suite("Discovery manager over Avahi in the lab", .serialized, .enabled(if: Lab.isRunning))
struct DiscoveryManagerLabTests {
    /// The lab's devices as the core makes them (one per Cast id), in the manager's order.
    static func expectedDevices(appID: String?) throws -> [String] {
        let lab = try Lab.devices().filter { appID == nil || $0.subtypes.contains(appID!) }
        var byID: [String: String] = [:]
        for device in lab {
            let service = ResolvedService(instanceName: device.instance, hostName: device.host, port: device.port,
                                          addresses: [ServiceAddress(device.ipv4 ?? "")],
                                          txt: TXTRecord(strings: device.txt.map { Array($0.utf8) }))
            let made = try CastDevice(service: service)
            byID[made.uniqueID] = made.friendlyName
        }
        return byID.values.sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) }
    }

    @Test("lists one device per Cast id, sorted, and a mirror of its events equals its list", arguments: [nil, "233637DE"])
    func listing(appID: String?) async throws {
        let criteria = try appID.map { try DiscoveryCriteria(applicationID: $0) } ?? .all
        let manager = DiscoveryManager(backend: AvahiBackend(), criteria: criteria)
        let (initial, events) = manager.subscribe()
        let mirror = Mutex(initial)
        let reader = Task {
            for await event in events { mirror.withLock { event.listChange?.apply(to: &$0) } }
        }
        defer { reader.cancel() }
        manager.startDiscovery()
        defer { manager.stopDiscovery() }

        let expected = try Self.expectedDevices(appID: appID)
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline, manager.devices.map(\.friendlyName) != expected {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(manager.devices.map(\.friendlyName) == expected)
        #expect(manager.discoveryActive)
        try await Task.sleep(for: .milliseconds(300))  // let the reader drain the stream
        #expect(mirror.withLock { $0 } == manager.devices)
        let found = await manager.find(uniqueID: manager.device(at: 0)?.uniqueID ?? "", timeout: .seconds(1))
        #expect(found == manager.device(at: 0))
    }
}
