import CastDiscovery
import Foundation

/// Runs one discovery scan: starts a manager and returns its list as soon as the scan is
/// complete (see ``ScanProgress``), or when `timeout` passes.
public struct Scanner: Sendable {
    /// The backend to browse with.
    public var backend: any DiscoveryBackend
    /// What to look for.
    public var criteria: DiscoveryCriteria
    /// The longest the scan may take.
    public var timeout: Duration

    /// Creates a scanner.
    public init(backend: any DiscoveryBackend, criteria: DiscoveryCriteria, timeout: Duration) {
        self.backend = backend
        self.criteria = criteria
        self.timeout = timeout
    }

    /// Scans once. Throws the backend's error when discovery cannot start at all.
    public func scan(progress: (@Sendable (Int) -> Void)? = nil) async throws(DiscoveryError) -> ScanResult {
        let manager = DiscoveryManager(backend: backend, criteria: criteria)
        // A mirror of the list kept from the events, so the result is the list when the scan
        // completed, not whatever the backend has delivered by the time the result is read.
        let (initial, events) = manager.subscribe()
        let clock = ContinuousClock()
        let start = clock.now
        manager.startDiscovery()
        defer { manager.stopDiscovery() }

        let outcome = await withTaskGroup(of: ScanOutcome.self) { group in
            group.addTask {
                var failures: [String] = []
                var devices = initial
                for await event in events {
                    event.listChange?.apply(to: &devices)
                    switch event {
                    case .scanCompleted:
                        return .completed(devices, failures)
                    case .discoveryFailedToStart(let error):
                        return .failed(error)
                    case .discoveryStopped(.backendFailed(let error)):
                        return .failed(error)
                    case .discoveryStopped:
                        return .ended(devices, failures)
                    case .resolveFailed(let key, let error):
                        failures.append("\(key.name): \(error.message)")
                    case .didUpdateDeviceList:
                        progress?(devices.count)
                    default:
                        break
                    }
                }
                return .ended(devices, failures)
            }
            group.addTask { [timeout] in
                try? await Task.sleep(for: timeout)
                return .timedOut
            }
            let first = await group.next() ?? .timedOut
            group.cancelAll()
            return first
        }
        let seconds = (clock.now - start).seconds
        switch outcome {
        case .failed(let error):
            throw error
        case .completed(let devices, let failures):
            return ScanResult(devices: devices, complete: true, elapsed: seconds, resolveFailures: failures)
        case .ended(let devices, let failures):
            return ScanResult(devices: devices, complete: manager.isScanComplete, elapsed: seconds, resolveFailures: failures)
        case .timedOut:
            return ScanResult(devices: manager.devices, complete: false, elapsed: seconds, resolveFailures: [])
        }
    }

    private enum ScanOutcome: Sendable {
        case completed([CastDevice], [String])
        case ended([CastDevice], [String])
        case failed(DiscoveryError)
        case timedOut
    }
}
