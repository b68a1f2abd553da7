/// The one owner of a ``DiscoveryManager``'s state: a loop that takes its inputs (the
/// application's start, stop and find, the backend's events, its own timers) one at a time, in
/// order, changes the state, and publishes the events with the state they leave.
///
/// Nothing else changes the state, so nothing else needs a lock around it: the manager's getters
/// read what the loop published (``DiscoveryOutlet``), and the delegate is called from the
/// loop, after each batch is published, one call at a time.
struct DiscoveryLoop {
    /// Everything the loop reacts to.
    enum Input: Sendable {
        case start
        case stop
        /// The run's source `source` (0 for a backend that is one stack) has events to take, or
        /// has ended: one such input at a time for each source.
        case sourceReady(run: Int, source: Int)
        case deadline(run: Int, generation: Int)
        case find(token: Int, uniqueID: String, timeout: Duration, CheckedContinuation<CastDevice?, Never>)
        case findEnded(token: Int)
    }

    private struct PendingFind {
        var token: Int
        var uniqueID: String
        var continuation: CheckedContinuation<CastDevice?, Never>
        var timer: Task<Void, Never>
    }

    private let backend: any DiscoveryBackend
    private let criteria: DiscoveryCriteria
    private let filter: DeviceFilter
    /// What the scan's deadlines and the finds' time-outs are kept with.
    private let clock: any DiscoveryClock
    private let inputs: WaitableQueue<DiscoveryInbox>
    private let outlet: DiscoveryOutlet
    private weak var manager: DiscoveryManager?

    private var list: DeviceList
    private var discoveryState = DiscoveryState.stopped
    private var backendState: BackendState?
    private var run = 0
    /// The buffers of the run's sources, read here directly (``BackendEventBuffer/take(orNotify:)``).
    private var sources: [BackendEventBuffer] = []
    /// The merge of the run's sources (of a backend that is one stack: of its copies), run
    /// here. Mutated in place (never through a local copy, which would copy its tables on every
    /// event).
    private var merger: BackendMerger?
    /// Which services the merge's asking sources resolved, for its daemon sources.
    private var ledger: ResolutionLedger?
    private var progress: ScanProgress?
    private var completion: ScanCompletion?
    private var deadline: Task<Void, Never>?
    /// When ``deadline`` fires.
    private var deadlineInstant: ContinuousClock.Instant?
    /// When the scan's progress is to be checked next.
    private var progressCheck: ContinuousClock.Instant?
    private var deadlineGeneration = 0
    private var find: PendingFind?
    /// The newest find the loop has heard of, and the newer ones whose caller gave up before
    /// the loop heard of them.
    private var newestFind = 0
    private var abandonedFinds: Set<Int> = []

    init(
        backend: any DiscoveryBackend, criteria: DiscoveryCriteria, filter: DeviceFilter, clock: any DiscoveryClock,
        inputs: WaitableQueue<DiscoveryInbox>, outlet: DiscoveryOutlet, manager: DiscoveryManager
    ) {
        self.backend = backend
        self.criteria = criteria
        self.filter = filter
        self.clock = clock
        self.inputs = inputs
        self.outlet = outlet
        self.manager = manager
        list = DeviceList(criteria: criteria, filter: filter)
    }

    /// Takes inputs until the manager goes away, then lets go of everything.
    static func run(_ loop: consuming DiscoveryLoop, inputs: WaitableQueue<DiscoveryInbox>) async {
        var loop = loop
        while let input = await inputs.next() { loop.handle(input) }
        loop.close()
    }

    mutating func handle(_ input: Input) {
        switch input {
        case .start:
            start()
        case .stop:
            if discoveryState == .running { stop(.requested) }
        case .sourceReady(let run, let source):
            guard run == self.run, discoveryState == .running, sources.indices.contains(source) else { return }
            read(source)
        case .deadline(let run, let generation):
            guard run == self.run, generation == deadlineGeneration, discoveryState == .running else { return }
            deadline = nil
            deadlineInstant = nil
            // A source that says how far it has read is read first: its answers up to then are
            // taken before any first report held for them is judged.
            for source in sources.indices where sources[source].readThrough != nil {
                read(source)
                guard run == self.run, discoveryState == .running else { return }
            }
            let now = clock.now
            if let check = progressCheck, check <= now { progressCheck = nil }
            releaseDue(at: now)
            guard run == self.run, discoveryState == .running else { return }
            track([], at: now)
            scheduleNext()
        case .find(let token, let uniqueID, let timeout, let continuation):
            beginFind(token: token, uniqueID: uniqueID, timeout: timeout, continuation: continuation)
        case .findEnded(let token):
            endFind(token: token)
        }
    }

    // MARK: - Start and stop

    private mutating func start() {
        guard discoveryState == .stopped else { return }
        let browseTypes = criteria.browseTypes
        let buffers: [BackendEventBuffer]
        do throws(DiscoveryError) {
            let request = try BrowseRequest(parsing: browseTypes, passive: outlet.passiveScan, filter: filter)
            if let merged = backend as? MergedBackend {
                let started = try merged.start(request)
                buffers = started.buffers
                merger = started.merger
                ledger = started.ledger
            } else {
                buffers = [try backend.readableBuffer(for: request)]
                merger = BackendMerger(single: backend.firstReportWait)
                ledger = nil
            }
        } catch {
            publish([.discoveryFailedToStart(error)])
            return
        }
        run += 1
        discoveryState = .running
        backendState = nil
        progress = ScanProgress(
            browseTypes: browseTypes, round: backend.queryRound, sources: backend.scanSources, start: clock.now)
        progressCheck = nil
        completion = nil
        var events: [DiscoveryEvent] = [.discoveryStarted(browseTypes: browseTypes)]
        if list.beginRun() { events.append(.hadDiscoveredDevicesWhenStarting(count: list.count)) }
        publish(events)
        sources = buffers
        for source in buffers.indices { read(source) }
    }

    private mutating func stop(_ reason: DiscoveryStopReason) {
        discoveryState = .stopped
        run += 1
        let sources = self.sources
        self.sources = []
        merger = nil
        ledger = nil
        // Outside the state: letting go stops the backends.
        sources.forEach { $0.letGo() }
        deadline?.cancel()
        deadline = nil
        list.endRun()
        publish([.discoveryStopped(reason)])
    }

    // MARK: - Backend events

    /// How many events the loop takes from one source before it lets other inputs in.
    static let eventsPerTurn = 256

    /// Takes source `source`'s waiting events, at most ``eventsPerTurn``, until it has none
    /// (it is then told when it has: one ``Input/sourceReady(run:source:)``), has ended, or
    /// discovery stops; after a full turn it queues its next turn behind the other inputs.
    private mutating func read(_ source: Int) {
        let (run, inputs, buffer) = (self.run, self.inputs, sources[source])
        // Read before the events: everything the source read up to then is among them.
        let readThrough = buffer.readThrough
        for _ in 0..<Self.eventsPerTurn {
            switch buffer.take(orNotify: { inputs.post(.sourceReady(run: run, source: source)) }) {
            case .event(let event):
                merger?.noteSource(source, madeBy: buffer.lastPush)
                take(event, from: source)
            case .waiting:
                if let readThrough { caughtUp(source, readThrough: readThrough) }
                flushPending()
                return
            case .ended:
                sourceEnded(source)
                return
            }
            guard run == self.run, discoveryState == .running else { return }
        }
        flushPending()
        guard run == self.run, discoveryState == .running else { return }
        inputs.post(.sourceReady(run: run, source: source))
    }

    /// Source `source` has handed over everything it read up to `readThrough`, and the loop
    /// has taken it all: the first reports that waited on it may go.
    private mutating func caughtUp(_ source: Int, readThrough: ContinuousClock.Instant) {
        let now = clock.now
        if let released = merger?.caughtUp(source, readThrough: readThrough, at: now) { handle(released) }
        scheduleNext()
    }

    /// Releases the first reports whose wait is over at `now`.
    private mutating func releaseDue(at now: ContinuousClock.Instant) {
        if let released = merger?.releaseDue(at: now) { handle(released) }
    }

    /// Says the pending count the turn's copy reports left, once per turn (not per report).
    private mutating func flushPending() {
        guard let events = merger?.flush(), !events.isEmpty else { return }
        handle(events)
    }

    /// Takes an event of source `source` through the merge.
    private mutating func take(_ event: BackendEvent, from source: Int) {
        let now = clock.now
        guard let merged = merger?.take(event, from: source, at: now) else { return }
        // A daemon source hears what the asking ones resolved.
        ledger?.deliver()
        handle(merged)
        scheduleNext()
    }

    /// Source `source` has ended: discovery ends once every source has.
    private mutating func sourceEnded(_ source: Int) {
        guard let (merged, done) = merger?.end(source) else { return stop(.backendEnded) }
        let run = self.run
        ledger?.deliver()
        handle(merged)
        if done, discoveryState == .running, run == self.run { stop(.backendEnded) }
    }

    /// Handles the merge's events in order, until one stops discovery.
    private mutating func handle(_ events: [BackendEvent]) {
        let run = self.run
        for event in events {
            guard run == self.run, discoveryState == .running else { return }
            handle(event)
        }
    }

    private mutating func handle(_ event: BackendEvent) {
        let changes = list.apply(event)
        var events: [DiscoveryEvent] = []
        if !changes.isEmpty {
            events = [.willUpdateDeviceList] + changes.map(DiscoveryEvent.init) + [.didUpdateDeviceList]
        }
        switch event {
        case .stateChanged(let state):
            backendState = state
            events.append(.backendStateChanged(state))
            if case .failed(let error) = state {
                publish(events)
                stop(.backendFailed(error))
                return
            }
        case .cacheExhausted(let browseType):
            events.append(.cacheExhausted(browseType: browseType))
        case .allForNow(let browseType):
            events.append(.allForNow(browseType: browseType))
        case .resolveFailed(let key, let error):
            events.append(.resolveFailed(key, error))
        case .statistics(let statistics):
            events.append(.backendStatistics(statistics))
        case .found, .updated, .removed, .resolvesPending, .browseStarted, .copyAdded, .sourceProgress, .copyRemoved,
            .copyResolved, .copyAddressesComplete, .copyFailed, .copyLimit:
            break
        }
        track(events, recording: event, at: clock.now)
        if !changes.isEmpty { completeFind() }
    }

    /// Records `event` (if any) in the scan's progress, then publishes `events` with what the
    /// scan's state adds to them: a merged backend's all-for-now and cache delivery (decided by
    /// the progress, taken by the list as a single stack's would be), settled browses, the
    /// completion, and the next deadline.
    private mutating func track(
        _ events: [DiscoveryEvent], recording event: BackendEvent? = nil, at now: ContinuousClock.Instant
    ) {
        var events = events
        // Recorded in place: a copy of the progress held across the change would copy its
        // tables on every event.
        let update: ScanProgress.Update?
        if let event { update = progress?.record(event, at: now) } else { update = progress?.status(at: now) }
        if let update, let progress {
            for milestone in update.reached {
                let changes = list.apply(milestone)
                if !changes.isEmpty {
                    events += [.willUpdateDeviceList] + changes.map(DiscoveryEvent.init) + [.didUpdateDeviceList]
                }
                switch milestone {
                case .cacheExhausted(let browseType): events.append(.cacheExhausted(browseType: browseType))
                case .allForNow(let browseType): events.append(.allForNow(browseType: browseType))
                default: break
                }
            }
            events += update.settled.map(DiscoveryEvent.browseSettled)
            if update.status == .complete, completion == nil {
                let done = ScanCompletion(
                    devices: list.devices, browses: progress.settlements, elapsed: now - progress.start)
                completion = done
                events.append(.scanCompleted(done))
            }
            if let next = update.nextCheck {
                progressCheck = next
                scheduleNext()
            }
        }
        if !events.isEmpty { publish(events) }
    }

    /// Sets the timer for the first of the scan's next check and the merge's next release of
    /// a held first report.
    private mutating func scheduleNext() {
        let next = [progressCheck, merger?.nextCheck(at: clock.now)].compactMap { $0 }.min()
        guard let next, discoveryState == .running else { return }
        schedule(at: next)
    }

    private mutating func schedule(at instant: ContinuousClock.Instant) {
        // A timer due no later stays: most events leave the next check where it was, and a
        // quiet round that moves later with each new copy is looked at again when the earlier
        // timer fires, instead of a task made and cancelled per event.
        if deadline != nil, let current = deadlineInstant, current <= instant { return }
        deadlineInstant = instant
        deadline?.cancel()
        deadlineGeneration += 1
        let (run, generation, inputs, clock) = (self.run, deadlineGeneration, self.inputs, self.clock)
        deadline = Task {
            try? await clock.sleep(until: instant, tolerance: nil)
            guard !Task.isCancelled else { return }
            inputs.post(.deadline(run: run, generation: generation))
        }
    }

    // MARK: - Find

    private mutating func beginFind(
        token: Int, uniqueID: String, timeout: Duration, continuation: CheckedContinuation<CastDevice?, Never>
    ) {
        newestFind = max(newestFind, token)
        if abandonedFinds.remove(token) != nil {
            continuation.resume(returning: nil)
            return
        }
        if let device = list.device(withUniqueID: uniqueID) {
            continuation.resume(returning: device)
            return
        }
        guard timeout > .zero else {
            continuation.resume(returning: nil)
            return
        }
        if let old = find {
            old.timer.cancel()
            old.continuation.resume(returning: nil)
        }
        let (inputs, clock) = (self.inputs, self.clock)
        let timer = Task {
            try? await clock.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            inputs.post(.findEnded(token: token))
        }
        find = PendingFind(token: token, uniqueID: uniqueID, continuation: continuation, timer: timer)
        publish([])
    }

    private mutating func endFind(token: Int) {
        guard let pending = find, pending.token == token else {
            // A find the loop has not heard of yet: its caller gave up first. Older ones are over.
            if token > newestFind { abandonedFinds.insert(token) }
            return
        }
        find = nil
        pending.timer.cancel()
        pending.continuation.resume(returning: nil)
        publish([])
    }

    private mutating func completeFind() {
        guard let pending = find, let device = list.device(withUniqueID: pending.uniqueID) else { return }
        find = nil
        pending.timer.cancel()
        pending.continuation.resume(returning: device)
        publish([])
    }

    // MARK: - Publishing

    /// Publishes the state with `events`, then hands the events to the delegate in order.
    private func publish(_ events: [DiscoveryEvent]) {
        outlet.publish(snapshot, NumberedDiscoveryEvent.numbering(events, endingAt: list.generation))
        guard !events.isEmpty, let manager, let delegate = outlet.delegate else { return }
        for event in events { event.deliver(to: delegate, from: manager) }
    }

    private var snapshot: DiscoveryOutlet.Snapshot {
        DiscoveryOutlet.Snapshot(
            list: list.snapshot, discoveryState: discoveryState,
            backendState: backendState, isScanComplete: completion != nil, lastCompletion: completion,
            pendingFindID: find?.uniqueID)
    }

    /// The manager is gone: stop the backend, answer a waiting find, end every stream.
    private mutating func close() {
        sources.forEach { $0.letGo() }
        deadline?.cancel()
        if let pending = find {
            pending.timer.cancel()
            pending.continuation.resume(returning: nil)
        }
        find = nil
        outlet.close()
    }
}
