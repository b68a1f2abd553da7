import CastDiscovery
import Foundation

/// Iterates a backend's event stream in a task and keeps every event, so tests can wait for
/// a condition on what has arrived so far.
final class EventCollector: Sendable {
    private let events = LockedValue<[BackendEvent]>([])
    private let task = LockedValue<Task<Void, Never>?>(nil)

    init(_ stream: AsyncStream<BackendEvent>) {
        let iteration = Task { [weak self] in
            for await event in stream {
                guard let self else { return }
                self.events.withLock { $0.append(event) }
            }
        }
        task.withLock { $0 = iteration }
    }

    /// Every event so far, in order.
    var all: [BackendEvent] { events.withLock { $0 } }

    /// The services currently found and not removed, by instance name.
    var services: [String: DiscoveredService] {
        var current: [String: DiscoveredService] = [:]
        for event in all {
            switch event {
            case .found(let s), .updated(let s): current[s.service.instanceName] = s
            case .removed(let s): current[s.service.instanceName] = nil
            default: break
            }
        }
        return current
    }

    /// Waits until `condition` holds (checked every 100 ms) or `seconds` pass; returns whether it held.
    @discardableResult
    func wait(seconds: Double, until condition: (EventCollector) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(self) { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return condition(self)
    }

    /// Ends the iteration, which tears the browse down.
    func cancel() { task.withLock { $0?.cancel() } }

    deinit { cancel() }
}
