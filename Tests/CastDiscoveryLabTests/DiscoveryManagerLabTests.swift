import CastDiscovery
import Foundation
import Testing

/// The discovery manager over each backend, against the lab's devices.
@Suite("Discovery manager in the lab", .serialized, .enabled(if: Lab.isRunning), .timeLimit(.minutes(1)))
struct DiscoveryManagerLabTests {
    /// The lab's devices as the core makes them (one per Cast id), in the manager's order.
    static func expectedDevices(appID: String?) throws -> [String] {
        let lab = try Lab.devices().filter { appID == nil || $0.subtypes.contains(appID!) }
        var byID: [String: String] = [:]
        for device in lab {
            let service = ResolvedService(
                instanceName: device.instance, hostName: device.host, port: device.port,
                addresses: [ServiceAddress(device.ipv4 ?? device.ipv6 ?? "")!],
                txt: TXTRecord(strings: device.txt.map { Array($0.utf8) }))
            let made = try CastDevice(service: service)
            byID[made.uniqueID] = made.friendlyName
        }
        return byID.values.sorted { ($0.lowercased(), $0) < ($1.lowercased(), $1) }
    }

    @Test(
        "lists one device per Cast id, sorted, and a mirror of its events equals its list at completion",
        arguments: LabBackend.allCases, [nil, "233637DE"])
    func listing(backend: LabBackend, appID: String?) async throws {
        let expected = try Self.expectedDevices(appID: appID)
        try #require(!expected.isEmpty, "the lab has no device for this case")
        let criteria = try appID.map { try DiscoveryCriteria(applicationID: $0) } ?? .all
        let manager = DiscoveryManager(backend: backend.make(), criteria: criteria)
        var (mirror, events) = manager.subscribe()
        manager.startDiscovery()
        defer { manager.stopDiscovery() }
        var completion: ScanCompletion?
        for await event in events {
            event.listChange?.apply(to: &mirror)
            if case .scanCompleted(let done) = event {
                completion = done
                break
            }
        }
        let done = try #require(completion, "the event stream ended without a scanCompleted")
        #expect(done.devices.map(\.friendlyName) == expected)
        #expect(mirror == done.devices)
        #expect(manager.discoveryActive)
        let first = try #require(done.devices.first)
        #expect(await manager.find(uniqueID: first.uniqueID, timeout: .seconds(1)) == first)
    }
}
