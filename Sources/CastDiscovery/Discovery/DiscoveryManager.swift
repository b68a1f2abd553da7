import Synchronization

/// Discovers Cast devices through a backend and keeps them in a sorted list, with the semantics
/// of the Google Cast SDK's `GCKDiscoveryManager`.
///
/// The list holds one device per Cast id, filtered by the criteria and sorted by friendly name
/// (see ``DeviceList``). Every change is announced through ``events()`` and the weakly held
/// ``delegate``, in order. Every member can be called from any thread or task.
///
/// ``passiveScan`` is recorded and reported only: avahi-daemon has no passive mode, and its
/// query schedule (RFC 6762 back-off) is the same either way; the replay backend ignores it too.
///
/// Devices stay listed when discovery stops. When it starts again with devices listed,
/// ``DiscoveryEvent/hadDiscoveredDevicesWhenStarting(count:)`` is sent before any scan result;
/// those devices stay until the new scan's first all-for-now of `_googlecast._tcp`, which removes
/// the ones not seen again.
public final class DiscoveryManager: Sendable {
    private struct PendingFind: Sendable {
        var token: Int
        var uniqueID: String
        var continuation: CheckedContinuation<CastDevice?, Never>
        var timer: Task<Void, Never>?
    }

    private struct State: Sendable {
        var list: DeviceList
        var discoveryState = DiscoveryState.stopped
        var backendState: BackendState?
        var passiveScan = false
        var run = 0
        var runTask: Task<Void, Never>?
        var subscribers: [Int: AsyncStream<DiscoveryEvent>.Continuation] = [:]
        var nextSubscriber = 0
        weak var delegate: (any DiscoveryManagerDelegate)?
        var find: PendingFind?
        var progress: ScanProgress?
        var quietTimer: Task<Void, Never>?
        var scanCompletedSent = false
        var findTokens = 0
    }

    /// The source of browse results.
    public let backend: any DiscoveryBackend
    /// What the manager looks for.
    public let criteria: DiscoveryCriteria

    private let state: Mutex<State>
    private let outbox: AsyncStream<DiscoveryEvent>.Continuation

    /// Creates a stopped manager over `backend` looking for devices matching `criteria`.
    public init(backend: any DiscoveryBackend, criteria: DiscoveryCriteria = .all) {
        self.backend = backend
        self.criteria = criteria
        state = Mutex(State(list: DeviceList(criteria: criteria)))
        let (stream, continuation) = AsyncStream.makeStream(of: DiscoveryEvent.self, bufferingPolicy: .unbounded)
        outbox = continuation
        Task { [weak self] in
            for await event in stream {
                guard let self else { return }
                if let delegate = self.delegate { event.deliver(to: delegate, from: self) }
            }
        }
    }

    deinit {
        let (subscribers, task, find) = state.withLock { s in
            let taken = (Array(s.subscribers.values), s.runTask, s.find)
            s.subscribers = [:]
            s.runTask = nil
            s.find = nil
            return taken
        }
        task?.cancel()
        find?.timer?.cancel()
        find?.continuation.resume(returning: nil)
        subscribers.forEach { $0.finish() }
        outbox.finish()
    }

    // MARK: - State

    /// The receiver of the manager's events; held weakly.
    public var delegate: (any DiscoveryManagerDelegate)? {
        get { state.withLock { $0.delegate } }
        set { state.withLock { $0.delegate = newValue } }
    }

    /// Whether discovery was started and has not stopped.
    public var discoveryState: DiscoveryState { state.withLock { $0.discoveryState } }

    /// Whether discovery is running and its backend is browsing now (false while the backend is
    /// connecting or has lost its daemon).
    public var discoveryActive: Bool {
        state.withLock { $0.discoveryState == .running && $0.backendState == .running }
    }

    /// The backend's last reported state in the current or last run; nil before any.
    public var backendState: BackendState? { state.withLock { $0.backendState } }

    /// Whether a passive scan was requested. Recorded and reported only: it changes neither the
    /// Avahi daemon's query schedule nor the replay.
    public var passiveScan: Bool {
        get { state.withLock { $0.passiveScan } }
        set { state.withLock { $0.passiveScan = newValue } }
    }

    /// Whether the current (or last) run's scan has completed (see ``ScanProgress``).
    public var isScanComplete: Bool { state.withLock { $0.progress?.isComplete ?? false } }

    /// Whether at least one device is listed.
    public var hasDiscoveredDevices: Bool { state.withLock { $0.list.count > 0 } }

    /// The number of listed devices.
    public var deviceCount: Int { state.withLock { $0.list.count } }

    /// The listed devices, in order.
    public var devices: [CastDevice] { state.withLock { $0.list.devices } }

    /// The device at `index` of the list; nil when out of range.
    public func device(at index: Int) -> CastDevice? {
        state.withLock { s in s.list.devices.indices.contains(index) ? s.list.devices[index] : nil }
    }

    /// The listed device with `uniqueID` (`googlecast:<id>`, id in any form ``CastDeviceID``
    /// accepts, prefix optional).
    public func device(withUniqueID uniqueID: String) -> CastDevice? {
        state.withLock { $0.list.device(withUniqueID: uniqueID) }
    }

    // MARK: - Events

    /// The events from now on, in order, until the manager goes away. Nothing is dropped.
    public func events() -> AsyncStream<DiscoveryEvent> {
        subscribe().events
    }

    /// The list now and the events that follow it, taken atomically: applying the list changes
    /// of `events` to `devices` keeps a mirror equal to ``devices``.
    public func subscribe() -> (devices: [CastDevice], events: AsyncStream<DiscoveryEvent>) {
        let (stream, continuation) = AsyncStream.makeStream(of: DiscoveryEvent.self, bufferingPolicy: .unbounded)
        let (devices, id) = state.withLock { s in
            let id = s.nextSubscriber
            s.nextSubscriber += 1
            s.subscribers[id] = continuation
            return (s.list.devices, id)
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return (devices, stream)
    }

    private func emit(_ events: [DiscoveryEvent], _ s: inout State) {
        for event in events {
            for continuation in s.subscribers.values { continuation.yield(event) }
            outbox.yield(event)
        }
    }

    // MARK: - Start and stop

    /// Starts discovery unless it runs. Sends ``DiscoveryEvent/discoveryStarted(browseTypes:)``
    /// (and ``DiscoveryEvent/hadDiscoveredDevicesWhenStarting(count:)`` when devices from the
    /// last run are listed), or ``DiscoveryEvent/discoveryFailedToStart(_:)``.
    public func startDiscovery() {
        let browseTypes = criteria.browseTypes
        state.withLock { s in
            guard s.discoveryState == .stopped else { return }
            let stream: AsyncStream<BackendEvent>
            do throws(DiscoveryError) {
                stream = try backend.events(browsing: browseTypes)
            } catch {
                emit([.discoveryFailedToStart(error)], &s)
                return
            }
            s.run += 1
            s.discoveryState = .running
            s.backendState = nil
            s.progress = ScanProgress(browseTypes: browseTypes)
            s.scanCompletedSent = false
            var events: [DiscoveryEvent] = [.discoveryStarted(browseTypes: browseTypes)]
            if s.list.beginRun() { events.append(.hadDiscoveredDevicesWhenStarting(count: s.list.count)) }
            emit(events, &s)
            let run = s.run
            s.runTask = Task { [weak self] in
                for await event in stream {
                    guard let self else { return }
                    self.handle(event, run: run)
                }
                self?.stop(run: run, reason: .backendEnded)
            }
        }
    }

    /// Stops discovery if it runs and sends ``DiscoveryEvent/discoveryStopped(_:)``. Listed
    /// devices stay listed.
    public func stopDiscovery() {
        let task = state.withLock { s -> Task<Void, Never>? in
            guard s.discoveryState == .running else { return nil }
            return stop(reason: .requested, &s)
        }
        task?.cancel()
    }

    private func stop(run: Int, reason: DiscoveryStopReason) {
        let task = state.withLock { s -> Task<Void, Never>? in
            guard s.run == run, s.discoveryState == .running else { return nil }
            return stop(reason: reason, &s)
        }
        task?.cancel()
    }

    private func stop(reason: DiscoveryStopReason, _ s: inout State) -> Task<Void, Never>? {
        s.discoveryState = .stopped
        s.run += 1
        s.quietTimer?.cancel()
        s.quietTimer = nil
        s.list.endRun()
        let task = s.runTask
        s.runTask = nil
        emit([.discoveryStopped(reason)], &s)
        return task
    }

    private func handle(_ event: BackendEvent, run: Int) {
        let task = state.withLock { s -> Task<Void, Never>? in
            guard s.run == run, s.discoveryState == .running else { return nil }
            let changes = s.list.apply(event)
            if !changes.isEmpty {
                emit([.willUpdateDeviceList] + changes.map(DiscoveryEvent.init) + [.didUpdateDeviceList], &s)
                completeFind(&s)
            }
            switch event {
            case .stateChanged(let backendState):
                s.backendState = backendState
                emit([.backendStateChanged(backendState)], &s)
                if case .failed(let error) = backendState { return stop(reason: .backendFailed(error), &s) }
            case .cacheExhausted(let browseType):
                emit([.cacheExhausted(browseType: browseType)], &s)
            case .allForNow(let browseType):
                emit([.allForNow(browseType: browseType)], &s)
            case .resolveFailed(let key, let error):
                emit([.resolveFailed(key, error)], &s)
            case .found, .updated, .removed, .resolvesPending:
                break
            }
            track(s.progress?.record(event, at: .now), run: run, &s)
            return nil
        }
        task?.cancel()
    }

    // MARK: - Scan completion

    /// Sends ``DiscoveryEvent/scanCompleted`` once the scan is complete, re-checking when a
    /// quiet period ends without further events.
    private func track(_ status: ScanProgress.Status?, run: Int, _ s: inout State) {
        s.quietTimer?.cancel()
        s.quietTimer = nil
        switch status {
        case .complete?:
            guard !s.scanCompletedSent else { return }
            s.scanCompletedSent = true
            emit([.scanCompleted], &s)
        case .quietUntil(let deadline)?:
            s.quietTimer = Task { [weak self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                guard !Task.isCancelled, let self else { return }
                self.state.withLock { s in
                    guard s.run == run, s.discoveryState == .running else { return }
                    self.track(s.progress?.status(at: .now), run: run, &s)
                }
            }
        case .waiting?, nil:
            break
        }
    }

    // MARK: - Find

    /// Waits for the device with `uniqueID` (in the forms ``device(withUniqueID:)`` accepts) to
    /// be listed, for at most `timeout`.
    ///
    /// Returns the device at once when it is already listed; nil on timeout, when the calling
    /// task is cancelled, or when a newer find replaces this one (one find at a time). It does
    /// not start discovery.
    public func find(uniqueID: String, timeout: Duration) async -> CastDevice? {
        let id = DeviceList.normalizedUniqueID(uniqueID)
        let token = state.withLock { s in
            s.findTokens += 1
            return s.findTokens
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<CastDevice?, Never>) in
                state.withLock { s in
                    if let device = s.list.device(withUniqueID: id) {
                        continuation.resume(returning: device)
                        return
                    }
                    if Task.isCancelled || timeout <= .zero {
                        continuation.resume(returning: nil)
                        return
                    }
                    if let old = s.find {
                        old.timer?.cancel()
                        old.continuation.resume(returning: nil)
                    }
                    let timer = Task { [weak self] in
                        try? await Task.sleep(for: timeout)
                        guard !Task.isCancelled else { return }
                        self?.endFind(token: token)
                    }
                    s.find = PendingFind(token: token, uniqueID: id, continuation: continuation, timer: timer)
                }
            }
        } onCancel: {
            endFind(token: token)
        }
    }

    /// The unique id a find is waiting for, if one is.
    var pendingFindID: String? { state.withLock { $0.find?.uniqueID } }

    private func endFind(token: Int) {
        state.withLock { s in
            guard let find = s.find, find.token == token else { return }
            s.find = nil
            find.timer?.cancel()
            find.continuation.resume(returning: nil)
        }
    }

    private func completeFind(_ s: inout State) {
        guard let find = s.find, let device = s.list.device(withUniqueID: find.uniqueID) else { return }
        s.find = nil
        find.timer?.cancel()
        find.continuation.resume(returning: device)
    }
}
