import CastDiscovery

/// Asks each device once for its status, as soon as it is handed over, at most
/// ``concurrency`` at once, all by one deadline; what each gave goes to a ``ReceiverStates``.
///
/// The deadline is the whole sweep's: a device handed over late has what is left of it, and
/// a device still waiting for its turn at the deadline is recorded as not asked (`timeout`),
/// so devices that never answer cost one deadline however many there are.
public final class ReceiverStatusSweep: Sendable {
    /// How many devices are asked at once by default.
    public static let defaultConcurrency = 32

    /// Where the results go.
    public let states: ReceiverStates
    /// The most devices asked at once.
    public let concurrency: Int
    /// When every probe must be over.
    public let deadline: ContinuousClock.Instant
    private let clock: any DiscoveryClock
    private let probe: @Sendable (ReceiverEndpoint, Duration) async -> ReceiverProbeResult
    private let judge: (@Sendable (ReceiverProbeResult) -> DeviceAuthVerdict?)?
    private let box = LockedValue(State())

    private struct State {
        var asked: Set<String> = []
        var waiting: [(id: String, endpoint: ReceiverEndpoint)] = []
        var running: [String: Task<Void, Never>] = [:]
        var finishing = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var isOver: Bool { finishing && waiting.isEmpty && running.isEmpty }
    }

    /// Creates a sweep that records into `states` and ends by `deadline` on `clock`. `probe`
    /// asks one endpoint within a time-out (``ReceiverProbe/probe(host:port:timeout:authenticate:)``
    /// unless a test gives another); `judge`, when given, gives the verdict on each answer to
    /// the device-authentication challenge as it comes, recorded beside the result.
    public init(
        states: ReceiverStates, deadline: ContinuousClock.Instant, clock: any DiscoveryClock = ContinuousClock(),
        concurrency: Int = defaultConcurrency,
        probe: @escaping @Sendable (ReceiverEndpoint, Duration) async -> ReceiverProbeResult = { endpoint, timeout in
            await ReceiverProbe.probe(host: endpoint.host, port: endpoint.port, timeout: timeout)
        },
        judge: (@Sendable (ReceiverProbeResult) -> DeviceAuthVerdict?)? = nil
    ) {
        self.states = states
        self.deadline = deadline
        self.clock = clock
        self.concurrency = max(1, concurrency)
        self.probe = probe
        self.judge = judge
    }

    /// Asks `device` unless it was asked already (by unique ID); a device with no address is
    /// recorded as not asked (`resolve`). Returns at once.
    public func ask(_ device: CastDevice) {
        let id = device.uniqueID
        guard let endpoint = ReceiverEndpoint(device: device) else {
            let first = box.withLock { $0.asked.insert(id).inserted }
            if first { states.record(.noAddress(port: device.port), for: id) }
            return
        }
        box.withLock { state in
            guard !state.finishing, state.asked.insert(id).inserted else { return }
            state.waiting.append((id, endpoint))
            startWaiting(&state)
        }
    }

    /// Waits until every device handed over has its result, or the deadline: a device still
    /// waiting for its turn then is recorded as not asked (`timeout`), and probes still running
    /// a moment after it are cancelled (each records what it had). No device is asked after
    /// this returns.
    public func finish() async {
        let clock = self.clock, deadline = self.deadline
        let watchdog = Task {
            do {
                try await clock.sleep(until: deadline, tolerance: nil)
                self.expire()
                // Each running probe has its own time-out, ending at the deadline, and says
                // which phase it was in then; cancelling is for one that overran it.
                try await clock.sleep(for: Self.overrun)
                self.cancelRunning()
            } catch {}
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = box.withLock { state -> Bool in
                state.finishing = true
                if state.isOver { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
        watchdog.cancel()
    }

    /// What asking `device` gave: its result, or, for a device never handed over (or still
    /// waiting for its turn), not asked.
    public func result(for device: CastDevice) -> ReceiverProbeResult {
        if let entry = states.entry(for: device.uniqueID) { return entry.result }
        return notAsked(ReceiverEndpoint(device: device)?.host ?? "", device.port)
    }

    /// The result of a device the deadline came before.
    private func notAsked(_ host: String, _ port: UInt16) -> ReceiverProbeResult {
        var result = ReceiverProbeResult(host: host, port: port)
        result.error = CastChannelError(
            .timeout, "not asked before the time-out (\(concurrency) devices were being asked)")
        return result
    }

    /// Starts waiting probes while there is room, each with what is left of the deadline.
    private func startWaiting(_ state: inout State) {
        while state.running.count < concurrency, !state.waiting.isEmpty {
            let (id, endpoint) = state.waiting.removeFirst()
            let timeout = max(.zero, deadline - clock.now)
            let probe = self.probe, states = self.states, judge = self.judge
            state.running[id] = Task {
                let result = await probe(endpoint, timeout)
                states.record(result, for: id)
                if let verdict = judge?(result) { states.record(authentication: verdict, for: id) }
                self.ended(id)
            }
        }
    }

    /// One probe ended: start the next, or wake `finish` when nothing is left.
    private func ended(_ id: String) {
        let waiters = box.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.running[id] = nil
            startWaiting(&state)
            guard state.isOver else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }

    /// How long after the deadline a probe still running is cancelled.
    static let overrun: Duration = .milliseconds(150)

    /// The deadline passed: the devices still waiting are not asked.
    private func expire() {
        let (unasked, waiters) = box.withLock { state in
            let unasked = state.waiting
            state.waiting = []
            let waiters = state.isOver ? state.waiters : []
            if state.isOver { state.waiters = [] }
            return (unasked, waiters)
        }
        for (id, endpoint) in unasked { states.record(notAsked(endpoint.host, endpoint.port), for: id) }
        waiters.forEach { $0.resume() }
    }

    /// Probes that overran the deadline are cancelled; each ends on its own, records what it
    /// had and calls ``ended(_:)``.
    private func cancelRunning() {
        box.withLock { Array($0.running.values) }.forEach { $0.cancel() }
    }
}
