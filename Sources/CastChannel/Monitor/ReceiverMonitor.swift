import CastDiscovery

/// Keeps one Cast channel open to each watched device, with heartbeats both ways, and says
/// when a device's status changes, when it cannot be reached and when it answers again; each
/// result also goes to ``states``, the one store of channel state.
///
/// All channels run on one poll loop on a thread of its own (no thread per device). A channel
/// that fails is tried again after a capped, jittered backoff (``Configuration/retry``); a
/// device whose address changes is reconnected at its new one. Bounded: at most
/// ``Configuration/maximumDevices`` devices (the others are not watched, counted in
/// ``unwatchedDevices``), at most ``Configuration/maximumAttempts`` connections being set up
/// at once, and ``events`` keeps the newest ``Configuration/eventCapacity`` events for a slow
/// reader (what it drops is counted in ``droppedEvents``; ``states`` always has the latest).
public final class ReceiverMonitor: Sendable {
    /// How the monitor keeps its channels.
    public struct Configuration: Sendable, Hashable {
        /// How long one attempt may take: TCP, TLS and the first status together.
        public var attemptTimeout: Duration
        /// The heartbeat: PINGs sent, and the silence after which a channel counts as lost.
        public var timing: CastChannelSession.Timing
        /// When a failed channel is tried again.
        public var retry: RetrySchedule
        /// The most devices watched.
        public var maximumDevices: Int
        /// The most connections being set up (TCP or TLS) at once.
        public var maximumAttempts: Int
        /// How many events wait for a slow reader before the oldest are dropped.
        public var eventCapacity: Int
        /// Whether each new channel asks the device-authentication challenge (its answer comes
        /// as ``ReceiverMonitorEvent/deviceAuth(uniqueID:_:)``).
        public var authenticates: Bool

        /// Creates a configuration.
        public init(
            attemptTimeout: Duration = .seconds(5), timing: CastChannelSession.Timing = .init(),
            retry: RetrySchedule = RetrySchedule(initialDelay: .seconds(1), maximumDelay: .seconds(60)),
            maximumDevices: Int = 1024, maximumAttempts: Int = 64, eventCapacity: Int = 4096,
            authenticates: Bool = false
        ) {
            self.authenticates = authenticates
            self.attemptTimeout = attemptTimeout
            self.timing = timing
            self.retry = retry
            self.maximumDevices = max(1, maximumDevices)
            self.maximumAttempts = max(1, maximumAttempts)
            self.eventCapacity = max(1, eventCapacity)
        }
    }

    /// Where every result goes.
    public let states: ReceiverStates
    /// How the channels are kept.
    public let configuration: Configuration
    /// The changes, newest kept when the reader is slow; finishes when the monitor stops.
    public let events: AsyncStream<ReceiverMonitorEvent>

    private let continuation: AsyncStream<ReceiverMonitorEvent>.Continuation
    /// Where the loop's retry jitter starts: the loop draws from a copy of its own.
    fileprivate let jitter: JitterGenerator
    private let loop: PollLoop
    private let inbox = LockedValue<Inbox>(Inbox())
    private let counters = LockedValue<Counters>(Counters())

    private struct Inbox {
        var commands: [Command] = []
        var started = false
        var stopped = false
    }

    private struct Counters {
        var dropped = 0
        /// The devices not watched (past maximumDevices), each once; past `unwatchedLimit`
        /// only counted.
        var unwatched: Set<String> = []
        var unwatchedBeyond = 0
        var failure: String?
    }

    /// How many unwatched devices are told apart (the rest are counted).
    static let unwatchedLimit = 65_536

    enum Command: Sendable {
        case watch(id: String, endpoint: ReceiverEndpoint?)
        case forget(id: String)
        case keepOnly(Set<String>)
    }

    /// Creates a monitor that records into `states`, drawing its retries' jitter from `jitter`
    /// (a fixed seed in a test); nothing runs before ``start()``.
    ///
    /// - Throws: ``CastChannelError`` when the loop's wake-up pipe cannot be made.
    public init(
        states: ReceiverStates, configuration: Configuration = Configuration(),
        jitter: JitterGenerator = .seededFromSystem()
    ) throws(CastChannelError) {
        self.states = states
        self.configuration = configuration
        self.jitter = jitter
        (events, continuation) = AsyncStream.makeStream(
            of: ReceiverMonitorEvent.self, bufferingPolicy: .bufferingNewest(configuration.eventCapacity))
        do {
            loop = try PollLoop()
        } catch {
            throw CastChannelError(.closed, "cannot make the monitor's loop: \(error.message)")
        }
    }

    /// Starts the loop's thread. Once only.
    ///
    /// - Throws: ``CastChannelError`` when no thread can be started.
    public func start() throws(CastChannelError) {
        let first = inbox.withLock { inbox in
            defer { inbox.started = true }
            return !inbox.started
        }
        guard first else { return }
        let loop = self.loop, continuation = self.continuation
        do {
            try LoopThread.start { [self] in
                // Made on the loop's thread, which owns it from here on.
                let owner = MonitorLoop(monitor: self)
                if let failure = loop.run(owner) { counters.withLock { $0.failure = failure.reason } }
                owner.closeAll()
                inbox.withLock { $0.stopped = true }
                continuation.finish()
            }
        } catch {
            continuation.finish()
            throw CastChannelError(.closed, "cannot start the monitor's thread: \(error.reason)")
        }
    }

    /// Watches `device` (by unique ID): connects at once to its ``ReceiverEndpoint/init(device:)``,
    /// or, when it was watched at another endpoint, reconnects there. A device with no address
    /// is recorded as unreachable (`resolve`).
    public func watch(_ device: CastDevice) {
        send(.watch(id: device.uniqueID, endpoint: ReceiverEndpoint(device: device)))
    }

    /// Stops watching a device (it left the list): its channel is closed, its state forgotten.
    public func forget(_ uniqueID: String) {
        send(.forget(id: uniqueID))
    }

    /// Makes the watched devices exactly `devices` (a list taken whole): the others are
    /// forgotten, these watched at their endpoints now.
    public func keep(only devices: [CastDevice]) {
        send(.keepOnly(Set(devices.map(\.uniqueID))))
        devices.forEach(watch)
    }

    /// Closes every channel and ends the loop (within a poll round); ``events`` then finishes,
    /// also when the monitor never started. Later commands are dropped.
    public func stop() {
        let unstarted = inbox.withLock { inbox -> Bool in
            inbox.stopped = true
            inbox.commands = []
            defer { inbox.started = true }
            return !inbox.started
        }
        if unstarted { continuation.finish() }
        loop.stop()
    }

    /// How many events a slow reader of ``events`` lost (the newest were kept).
    public var droppedEvents: Int { counters.withLock { $0.dropped } }

    /// How many devices were not watched because ``Configuration/maximumDevices`` were.
    public var unwatchedDevices: Int { counters.withLock { $0.unwatched.count + $0.unwatchedBeyond } }

    /// Why the monitor's loop ended on its own (a failed `poll`); nil while it runs or after
    /// ``stop()``.
    public var failure: String? { counters.withLock { $0.failure } }

    private func send(_ command: Command) {
        let sent = inbox.withLock { inbox -> Bool in
            guard !inbox.stopped else { return false }
            inbox.commands.append(command)
            return true
        }
        if sent { loop.wake() }
    }

    fileprivate func takeCommands() -> [Command] {
        inbox.withLock { inbox in
            defer { inbox.commands = [] }
            return inbox.commands
        }
    }

    fileprivate func emit(_ event: ReceiverMonitorEvent) {
        if case .dropped = continuation.yield(event) { counters.withLock { $0.dropped += 1 } }
    }

    fileprivate func countUnwatched(_ id: String) {
        counters.withLock { counters in
            guard !counters.unwatched.contains(id) else { return }
            if counters.unwatched.count < Self.unwatchedLimit {
                counters.unwatched.insert(id)
            } else {
                counters.unwatchedBeyond += 1
            }
        }
    }

    fileprivate func forgetUnwatched(_ id: String) {
        counters.withLock { _ = $0.unwatched.remove(id) }
    }

    fileprivate var pollLoop: PollLoop { loop }
}

/// The monitor's state, owned by its loop's thread: one ``KeptConnection`` per device, when
/// each is due to be tried again, and what was last said of each.
private final class MonitorLoop: PollLoopOwner {
    private struct Watched {
        /// Nil for a device with no address.
        var connection: KeptConnection?
        /// When the next attempt may start; nil while one runs or the channel is open.
        var due: ContinuousClock.Instant?
        var failures = 0
        /// Whether it was reachable at the last report; nil before the first.
        var reachable: Bool?
        var lastStatus: ReceiverStatus?
    }

    private unowned let monitor: ReceiverMonitor
    private let loop: PollLoop
    private var watched: [String: Watched] = [:]
    private var jitter: JitterGenerator

    init(monitor: ReceiverMonitor) {
        self.monitor = monitor
        loop = monitor.pollLoop
        jitter = monitor.jitter
    }

    func nextDeadline() -> ContinuousClock.Instant? {
        // While every attempt slot is taken, a due attempt waits for one to end (which is a
        // round of the loop), not for its time.
        let full = settingUp >= monitor.configuration.maximumAttempts
        var next: ContinuousClock.Instant?
        for entry in watched.values {
            for instant in [full ? nil : entry.due, entry.connection?.nextDeadline].compactMap({ $0 }) {
                next = min(next ?? instant, instant)
            }
        }
        return next
    }

    /// How many connections are being set up (TCP or TLS) now.
    private var settingUp: Int {
        watched.values.filter { $0.connection?.isActive == true && $0.connection?.isOpen == false }.count
    }

    func tick(at now: ContinuousClock.Instant) {
        loop.assertOnLoop()
        for command in monitor.takeCommands() { apply(command, at: now) }
        for entry in watched.values { entry.connection?.tick(at: now) }
        startDue(at: now)
    }

    func closeAll() {
        for entry in watched.values { entry.connection?.close() }
        watched = [:]
    }

    private func apply(_ command: ReceiverMonitor.Command, at now: ContinuousClock.Instant) {
        switch command {
        case .forget(let id):
            forget(id)
        case .keepOnly(let ids):
            for id in watched.keys where !ids.contains(id) { forget(id) }
        case .watch(let id, let endpoint):
            if let entry = watched[id], entry.connection?.endpoint == endpoint { return }
            guard watched[id] != nil || watched.count < monitor.configuration.maximumDevices else {
                return monitor.countUnwatched(id)
            }
            watched[id]?.connection?.close()
            var entry = watched[id] ?? Watched()
            entry.failures = 0
            entry.connection = endpoint.map { endpoint in
                KeptConnection(
                    endpoint: endpoint, loop: loop, timing: monitor.configuration.timing,
                    attemptTimeout: monitor.configuration.attemptTimeout,
                    authenticates: monitor.configuration.authenticates
                ) { [unowned self] report in self.handle(report, of: id) }
            }
            entry.due = endpoint == nil ? nil : now
            watched[id] = entry
            if endpoint == nil { record(.noAddress(port: 0), of: id, reachable: false) }
        }
    }

    private func forget(_ id: String) {
        watched.removeValue(forKey: id)?.connection?.close()
        monitor.states.forget(id)
        monitor.forgetUnwatched(id)
    }

    /// Starts the attempts that are due, at most ``ReceiverMonitor/Configuration/maximumAttempts``
    /// setting up at once (the others wait for a later round).
    private func startDue(at now: ContinuousClock.Instant) {
        var settingUp = self.settingUp
        let due = watched.filter { $0.value.due.map { $0 <= now } ?? false }.sorted { $0.value.due! < $1.value.due! }
        for (id, _) in due where settingUp < monitor.configuration.maximumAttempts {
            watched[id]?.due = nil
            settingUp += 1
            watched[id]?.connection?.start(at: now)
        }
    }

    private func handle(_ report: KeptConnection.Report, of id: String) {
        guard watched[id] != nil else { return }
        switch report {
        case .status(let result):
            watched[id]?.failures = 0
            record(result, of: id, reachable: true)
        case .deviceAuth(let result):
            monitor.states.record(result, for: id)
            monitor.emit(.deviceAuth(uniqueID: id, result))
        case .failed(let result, let instant):
            let failures = (watched[id]?.failures ?? 0) + 1
            watched[id]?.failures = failures
            // The retry counts from the failure, on the loop's instants.
            watched[id]?.due = instant + monitor.configuration.retry.delay(afterFailures: failures, jitter: &jitter)
            record(result, of: id, reachable: false)
        }
    }

    /// Stores `result` and says what changed: reachable again, unreachable (once, until it
    /// answers again), a new status.
    private func record(_ result: ReceiverProbeResult, of id: String, reachable: Bool) {
        monitor.states.record(result, for: id)
        let was = watched[id]?.reachable
        watched[id]?.reachable = reachable
        if !reachable {
            watched[id]?.lastStatus = nil
            if was != false { monitor.emit(.unreachable(uniqueID: id, result)) }
            return
        }
        if was == false { monitor.emit(.reachable(uniqueID: id, result)) }
        if result.status != watched[id]?.lastStatus {
            watched[id]?.lastStatus = result.status
            monitor.emit(.status(uniqueID: id, result))
        }
    }
}
