extension DiscoveryManager {
    /// Runs one scan: starts discovery unless it runs, waits until the scan is complete (see
    /// ``ScanProgress``) or `timeout` has passed, stops discovery again if it started it, and
    /// returns the list as it was at that moment. `progress` sees the number of listed devices
    /// after each change; `listed` sees each device as it is inserted or changes (after missed
    /// events, every device then listed), so a caller can act on a device as soon as it is found.
    ///
    /// The result is built from the manager's events alone (a mirror of the list, the settled
    /// browses, the failed resolves), so it is the list when the scan ended, not whatever the
    /// backend delivered by the time the result was read. A scan that fell behind its events
    /// (a slow `progress`) goes on from the state in ``DiscoveryEvent/eventsDropped(_:)``; the
    /// settlements and failures among the missed events are not in the result. A scan of a manager that already runs
    /// and has completed its scan returns at once.
    ///
    /// - Throws: the backend's ``DiscoveryError`` when discovery cannot start, or fails for good.
    public func scan(
        timeout: Duration, progress: (@Sendable (Int) -> Void)? = nil, listed: (@Sendable (CastDevice) -> Void)? = nil
    ) async throws(DiscoveryError) -> ScanResult {
        let clock = self.clock
        let start = clock.now
        let (snapshot, events) = subscribeWithState()
        if snapshot.discoveryState == .running, let done = snapshot.lastCompletion {
            return ScanResult(
                devices: snapshot.list.devices, isComplete: true, elapsed: .zero, browses: done.browses,
                resolveFailures: [])
        }
        let startedHere = snapshot.discoveryState == .stopped
        if startedHere { startDiscovery() }
        defer { if startedHere { stopDiscovery() } }

        let mirror = ScanMirror(devices: snapshot.list.devices)
        if let listed { snapshot.list.devices.forEach(listed) }
        let outcome = await withTaskGroup(of: ScanMirror.Outcome.self) { group in
            group.addTask {
                for await event in events {
                    if let listed {
                        switch event {
                        case .inserted(let device, _), .updated(let device, _), .updatedAndMoved(let device, _, _):
                            listed(device)
                        case .eventsDropped(let missed):
                            missed.devices.forEach(listed)
                        default:
                            break
                        }
                    }
                    if let outcome = mirror.apply(event) { return outcome }
                    if case .didUpdateDeviceList = event { progress?(mirror.deviceCount) }
                }
                return .ended
            }
            group.addTask {
                try? await clock.sleep(for: timeout)
                return .timedOut
            }
            let first = await group.next() ?? .timedOut
            group.cancelAll()
            return first
        }
        let state = mirror.state
        switch outcome {
        case .failed(let error):
            throw error
        case .completed, .ended, .timedOut:
            let settled = criteria.browseTypes.map { type in
                state.browses.first { $0.browseType == type }
                    ?? BrowseSettlement(
                        browseType: type, reason: nil, after: nil, cacheDeliveredAfter: nil, services: 0)
            }
            return ScanResult(
                devices: state.devices, isComplete: outcome == .completed, elapsed: clock.now - start, browses: settled,
                resolveFailures: state.failures, statistics: state.statistics)
        }
    }
}

/// A scan's view of the manager, kept from its events only.
final class ScanMirror: Sendable {
    enum Outcome: Sendable, Equatable {
        case completed
        case ended
        case failed(DiscoveryError)
        case timedOut
    }

    struct State: Sendable {
        var devices: [CastDevice]
        var browses: [BrowseSettlement] = []
        var failures: [ResolveFailure] = []
        var statistics: BackendStatistics?
    }

    private let box: LockedValue<State>

    init(devices: [CastDevice]) {
        box = LockedValue(State(devices: devices))
    }

    var state: State { box.withLock { $0 } }
    var deviceCount: Int { box.withLock { $0.devices.count } }

    /// Follows one event; returns how the scan ends when the event ends it.
    func apply(_ event: DiscoveryEvent) -> Outcome? {
        box.withLock { state in
            event.listChange?.apply(to: &state.devices)
            switch event {
            case .scanCompleted(let done):
                state.devices = done.devices
                state.browses = done.browses
                return .completed
            case .discoveryFailedToStart(let error), .discoveryStopped(.backendFailed(let error)):
                return .failed(error)
            case .discoveryStopped:
                return .ended
            case .browseSettled(let settlement):
                state.browses.append(settlement)
            case .resolveFailed(let key, let error):
                state.failures.append(ResolveFailure(service: key, error: error))
            case .backendStatistics(let statistics):
                state.statistics = statistics
            case .eventsDropped(let missed):
                // Fell behind: carry on from the state the missed events left.
                state.devices = missed.devices
                if let done = missed.scanCompletion {
                    state.devices = done.devices
                    state.browses = done.browses
                    return .completed
                }
                if missed.discoveryState == .stopped {
                    if case .failed(let error)? = missed.backendState { return .failed(error) }
                    return .ended
                }
            default:
                break
            }
            return nil
        }
    }
}
