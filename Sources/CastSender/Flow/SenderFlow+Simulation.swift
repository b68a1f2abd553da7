import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension SenderFlow {
    /// A well-formed Cast device for a model: a Chromecast-like record with this friendly
    /// name, id (the name when nil) and model name.
    ///
    /// - Throws: `DeviceRejection` when the values make an invalid device (an empty name).
    public static func simulatedDevice(
        name: String, id: String? = nil, modelName: String? = nil,
        address: ServiceAddress = ServiceAddress(.v4(IPv4Address(192, 168, 1, 20)))
    ) throws(DeviceRejection) -> CastDevice {
        let id = id ?? name
        var txt = ["id=\(id)", "fn=\(name)", "ca=5", "st=0", "ve=05"]
        if let modelName { txt.append("md=\(modelName)") }
        let label = String(id.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.prefix(32))
        let service = ResolvedService(
            instanceName: "Simulated-\(id)", hostName: "\(label.isEmpty ? "device" : label).local",
            port: 8009, addresses: [address],
            txt: TXTRecord(strings: txt.map { Array($0.utf8) }))
        return try CastDevice(service: service, policy: .lenient)
    }

    /// The devices a discovery manager lists once a replay file has played to its end (as fast
    /// as possible), looking for `criteria`: the network a sender app would see.
    ///
    /// - Throws: `DiscoveryError` when the file is bad or discovery cannot start.
    public static func networkDevices(
        replaying url: URL, criteria: DiscoveryCriteria
    ) async throws(DiscoveryError) -> [CastDevice] {
        let backend = try ReplayBackend(contentsOf: url, speed: 0, ending: .finish)
        return try await networkDevices(of: DiscoveryManager(backend: backend, criteria: criteria))
    }

    /// The devices `manager` lists once it has run until its backend ends (starting it when
    /// stopped): for a manager over a replay that finishes. The list is kept from the manager's
    /// events, so it is the one at the end of the run.
    ///
    /// - Throws: `DiscoveryError` when discovery fails to start.
    public static func networkDevices(of manager: DiscoveryManager) async throws(DiscoveryError) -> [CastDevice] {
        var (devices, events) = manager.subscribe()
        manager.startDiscovery()
        for await event in events {
            event.listChange?.apply(to: &devices)
            switch event {
            case .discoveryStopped: return devices
            case .discoveryFailedToStart(let error): throw error
            case .eventsDropped(let missed):
                // Fell behind: the list the missed events left, and whether the run had ended.
                devices = missed.devices
                if missed.discoveryState == .stopped { return devices }
            default: continue
            }
        }
        return devices
    }

    /// The snapshot after a launch (and a Cast button tap when `tap` is true) of the app in
    /// `configuration` with what it remembers, on a network with `devices`: what the app's
    /// user sees now. The returned flow holds the state to save.
    public static func simulateLaunch(
        configuration: SenderAppConfiguration, state: SenderFlowState, devices: [CastDevice], wifi: Bool = true,
        tap: Bool = false
    ) -> (flow: SenderFlow, steps: [SenderFlowStep]) {
        var flow = SenderFlow(configuration: configuration, state: state, wifi: wifi, networkDevices: devices)
        var steps = [flow.handle(.appLaunched)]
        if tap { steps.append(flow.handle(.castButtonTapped)) }
        return (flow, steps)
    }
}
