// list-devices REPLAY-FILE: the Cast devices a recorded network holds, as a discovery manager
// lists them (one per device, sorted), then each change as it comes. A live scan is the same
// code with a backend from CastDiscoveryBackends:
//   let backend = try BackendChoice.auto.select(interfaceName: nil, families: [.ipv4, .ipv6]).backend
import CastDiscovery
import Foundation

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: list-devices REPLAY-FILE\n".utf8))
    exit(64)
}
do {
    let backend = try ReplayBackend(
        contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]), speed: 0, ending: .finish)
    let manager = DiscoveryManager(backend: backend, criteria: .all)

    // One scan: every device, once the browses have settled.
    let result = try await manager.scan(timeout: .seconds(5))
    print("\(result.devices.count) devices\(result.isComplete ? "" : " (the scan timed out)"):")
    for device in result.devices {
        print("  \(device.friendlyName) (\(device.kind), \(device.modelName ?? "unknown model")) \(device.uniqueID)")
    }

    // A new manager as a stream of events (subscribe first), until the recording ends.
    let watcher = DiscoveryManager(
        backend: try ReplayBackend(
            contentsOf: URL(fileURLWithPath: CommandLine.arguments[1]), speed: 0, ending: .finish))
    let events = watcher.events()
    watcher.startDiscovery()
    for await event in events {
        switch event {
        case .inserted(let device, _): print("+ \(device.friendlyName)")
        case .removed(let device, _): print("- \(device.friendlyName)")
        case .discoveryStopped: exit(0)
        default: break
        }
    }
} catch {
    FileHandle.standardError.write(Data("list-devices: \(error)\n".utf8))
    exit(65)
}
