/// Several backends run as one: the mDNS querier beside avahi-daemon, or a multicast backend
/// and the known hosts. Each service is reported once, however many sources see it, with the
/// addresses of all of them; it is removed when the last one that saw it lets it go.
///
/// The merge reports each source's steps (``BackendEvent/sourceProgress(_:)``) and the browse's
/// start, not an all-for-now or a cache delivery of its own: when the merged browse has those is
/// decided once, by the scan (``ScanProgress``), from the steps and each source's ``Role``
/// (``scanSources``). A resolve counts as pending while an asking source waits for it, or while
/// a daemon waits for one of a service no source has resolved yet.
///
/// Each service is resolved once: a daemon read for its cache is given a ``ResolutionLedger``
/// of what the asking sources resolve, and resolves a copy itself only when they have not
/// resolved its service by the end of their first round (all-for-now with nothing pending), or
/// for a copy seen later, within their round (plus ``followUpAllowance``), or stop resolving it.
///
/// A ``DiscoveryManager`` merges in its own loop, reading each source's stream into its inputs:
/// no second buffer, no lock, no task between a source and the list. For any other consumer,
/// ``events(for:)`` gives one merged stream (``DiscoveryBackend/serviceEvents(for:)``), bounded
/// like any backend's (``BackendEventBuffer``): the sources' streams are read as soon as they
/// have events, so a consumer that falls behind has the merged events folded, never dropped;
/// statistics carry the sources' ``BackendStatistics/coalescedEvents`` summed with the merge's
/// own.
public struct MergedBackend: DiscoveryBackend {
    /// What the merge waits for from a source before a browse is all-for-now.
    public enum Role: String, Sendable, Hashable, Codable, CaseIterable {
        /// The source asks the network itself: its all-for-now is waited for, and its pending
        /// resolves.
        case asks
        /// A daemon whose cache is read: its cache delivery is waited for (not its all-for-now,
        /// which follows its own, slower query schedule), for at most its query round from the
        /// start (a daemon later than that is busy with the answers the querier hears as well:
        /// measured, a daemon restarted just before a scan of 500 devices delivered its "cache"
        /// 0.9-1.9 s after the start, long after the querier had all 500), and its pending
        /// resolves only of services no other source has resolved; it resolves only the copies
        /// the asking sources leave unresolved.
        case cache
    }

    /// One backend of the merge, with its name and role.
    public struct Source: Sendable {
        /// Its name, as ``SourceProgress/source`` and `scan.backend` give it (`mdns`, `avahi`).
        public var name: String
        /// The backend.
        public var backend: any DiscoveryBackend
        /// What the merge waits for from it.
        public var role: Role

        /// Creates a source.
        public init(_ name: String, _ backend: any DiscoveryBackend, role: Role = .asks) {
            self.name = name
            self.backend = backend
            self.role = role
        }
    }

    /// The sources; the first one's services lead (their TXT and host win) and its state
    /// changes are the merge's (another's only when it fails; a daemon read for its cache that
    /// fails is absent from the browses instead, and the asking sources carry on).
    public var sources: [Source]

    /// Creates the merge of `sources` (at least one); a source that is itself a merge gives its
    /// own sources in its place.
    public init(_ sources: [Source]) {
        self.sources = sources.flatMap { source in
            (source.backend as? MergedBackend)?.sources ?? [source]
        }
    }

    /// The sources, as a scan waits for them.
    public var scanSources: [ScanSource] {
        sources.map { ScanSource(name: $0.name, role: $0.role, round: $0.backend.queryRound) }
    }

    /// The longest of the sources' rounds (a browse whose cache has been delivered is settled
    /// by the merge's all-for-now well before such a round passes).
    public var queryRound: Duration { sources.map(\.backend.queryRound).max() ?? .zero }

    /// How long a daemon read for its cache waits for the asking sources to resolve a copy it
    /// has seen, beyond their round: the querier's first follow-up question for a copy whose
    /// answer lacked a record comes 100 ms after it.
    public static let followUpAllowance: Duration = .milliseconds(100)

    /// The ledger of what the asking sources resolve, when there are sources of both kinds: each
    /// service is then resolved once, by an asking source when it can (``ResolutionLedger``).
    private func resolutionLedger() -> ResolutionLedger? {
        let asking = sources.filter { $0.role == .asks }.map(\.backend.queryRound)
        guard let round = asking.max(), sources.contains(where: { $0.role == .cache }) else { return nil }
        return ResolutionLedger(deferral: round + Self.followUpAllowance)
    }

    /// One run of the merge: each source's buffer for a request, the merger they are read into,
    /// in any order of sources but each source's events in its own order, and the ledger that
    /// tells the daemons what the asking sources resolved.
    struct Run {
        var buffers: [BackendEventBuffer]
        var merger: BackendMerger
        var ledger: ResolutionLedger?
    }

    /// Starts every source's browses of `request`. A ``DiscoveryManager`` runs the merge in its
    /// own loop from this (each source's buffer read straight by the loop); ``events(for:)`` runs
    /// it for any other consumer.
    func start(_ request: BrowseRequest) throws(DiscoveryError) -> Run {
        guard !sources.isEmpty else {
            throw DiscoveryError(kind: .other, message: "no backend to merge", fix: "give at least one backend")
        }
        let ledger = resolutionLedger()
        var started: [Int: BackendEventBuffer] = [:]
        for index in Self.startOrder(of: sources.map(\.role)) {
            var request = request
            if sources[index].role == .cache, let ledger { request.resolvedElsewhere = ledger }
            do {
                started[index] = try sources[index].backend.readableBuffer(for: request)
            } catch {
                started.values.forEach { $0.letGo() }
                throw error
            }
        }
        let buffers = sources.indices.compactMap { started[$0] }
        let merger = BackendMerger(
            sources: sources.map { ($0.name, $0.role, $0.backend.firstReportWait) }, ledger: ledger)
        return Run(buffers: buffers, merger: merger, ledger: ledger)
    }

    /// The order in which sources with these roles are started: the daemons read for their
    /// cache first, then the sources that ask the network. A daemon connects in a few
    /// milliseconds while the network is quiet; once the querier has asked, it is busy with
    /// every device's answer (its client took 0.3 to 1.9 s to connect in the 500-device lab).
    /// A daemon's start must not wait for its connect either (the Avahi backend connects on its
    /// own thread when it has a ledger): a daemon still busy with a scan of a moment ago would
    /// hold up the querier's start.
    static func startOrder(of roles: [Role]) -> [Int] {
        roles.indices.filter { roles[$0] == .cache } + roles.indices.filter { roles[$0] != .cache }
    }

    public func events(for request: BrowseRequest) throws(DiscoveryError) -> AsyncStream<BackendEvent> {
        let run = try start(request)
        return MergedEventStream.start(buffers: run.buffers, merger: run.merger, ledger: run.ledger)
    }

    public var firstReportWait: FirstReportWait { sources.first?.backend.firstReportWait ?? .standard }
}

extension DiscoveryBackend {
    /// Starts the browses of `request` and returns their events with the copies merged into
    /// services (``BackendEvent/found(_:)``, ``BackendEvent/updated(_:)``,
    /// ``BackendEvent/removed(_:)``, the pending count), the browses' steps as they are: what a
    /// ``DiscoveryManager`` makes of the backend, for any other reader of it.
    public func serviceEvents(for request: BrowseRequest) throws(DiscoveryError) -> AsyncStream<BackendEvent> {
        if let merged = self as? MergedBackend { return try merged.events(for: request) }
        let buffer = try readableBuffer(for: request)
        return MergedEventStream.start(buffers: [buffer], merger: BackendMerger(single: firstReportWait), ledger: nil)
    }

    /// ``serviceEvents(for:)`` for browse types given as text, browsed actively.
    public func serviceEvents(browsing browseTypes: [String]) throws(DiscoveryError) -> AsyncStream<BackendEvent> {
        try serviceEvents(for: BrowseRequest(parsing: browseTypes))
    }
}

/// One merged stream of several sources' buffers, for a reader other than a ``DiscoveryManager``:
/// a task per source reads its buffer into the merge, and a timer releases the first reports
/// held for an instance's other copies.
final class MergedEventStream: Sendable {
    private struct State {
        var merger: BackendMerger
        var timer: Task<Void, Never>?
        var timerDue: ContinuousClock.Instant?
        var closed = false
    }

    /// What a reader did with its source's next event.
    private enum Step {
        case merged, waiting, ended, closed
    }

    private let state: LockedValue<State>
    /// The merged view's buffer, where a slow consumer's events are folded.
    private let buffer: BackendEventBuffer
    /// The sources' buffers, in the merge's order.
    private let sources: [BackendEventBuffer]
    private let ledger: ResolutionLedger?

    private init(
        merger: BackendMerger, buffer: BackendEventBuffer, sources: [BackendEventBuffer], ledger: ResolutionLedger?
    ) {
        state = LockedValue(State(merger: merger))
        self.buffer = buffer
        self.sources = sources
        self.ledger = ledger
    }

    static func start(buffers: [BackendEventBuffer], merger: BackendMerger, ledger: ResolutionLedger?) -> AsyncStream<
        BackendEvent
    > {
        let (output, buffer) = BackendEventBuffer.makeStream()
        let merge = MergedEventStream(merger: merger, buffer: buffer, sources: buffers, ledger: ledger)
        let readers = buffers.indices.map { index in Task { await merge.read(index) } }
        buffer.onTermination = {
            readers.forEach { $0.cancel() }
            merge.close()
        }
        return output
    }

    /// Reads source `index` until it ends or the consumer is gone, then lets it go. Each event
    /// is taken and merged under the merge's lock, so the merged order is one order, and so that
    /// when the source has nothing left, everything it read up to its ``BackendEventBuffer/readThrough``
    /// (read before the take) is merged: a stack's grace is judged in its own time, as the
    /// discovery loop does.
    private func read(_ index: Int) async {
        let source = sources[index]
        defer { source.letGo() }
        let (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        var woken = wakes.makeAsyncIterator()
        while !Task.isCancelled {
            let step = state.withLock { state -> Step in
                guard !state.closed else { return .closed }
                let through = source.readThrough
                switch source.take(orNotify: { wake.yield() }) {
                case .event(let event):
                    state.merger.noteSource(index, madeBy: source.lastPush)
                    // Each event is a turn of its own here: its pending count is said with it.
                    (state.merger.take(event, from: index, at: .now) + state.merger.flush()).forEach {
                        buffer.yield($0)
                    }
                    arm(&state)
                    return .merged
                case .waiting:
                    if let through {
                        state.merger.caughtUp(index, readThrough: through, at: .now).forEach { buffer.yield($0) }
                        arm(&state)
                    }
                    return .waiting
                case .ended:
                    return .ended
                }
            }
            switch step {
            case .merged:
                // Outside the merge's lock: a daemon source takes its own lock to hear it.
                ledger?.deliver()
            case .waiting:
                // Nil once the consumer is gone (the reader is cancelled).
                guard await woken.next() != nil else { return }
            case .ended:
                end(index)
                return
            case .closed:
                return
            }
        }
    }

    private func end(_ index: Int) {
        let done = state.withLock { state in
            let (events, done) = state.merger.end(index)
            events.forEach { buffer.yield($0) }
            if done {
                // The held reports go now: nothing more will come for them.
                state.merger.releaseHeld(at: .now + .seconds(3600)).forEach { buffer.yield($0) }
                state.timer?.cancel()
                state.closed = true
            }
            return done
        }
        ledger?.deliver()
        if done { buffer.finish() }
    }

    private func release() {
        state.withLock { state in
            state.timer = nil
            state.timerDue = nil
            guard !state.closed else { return }
            // A source that has nothing left to take has merged all it read up to now.
            for index in sources.indices {
                if let through = sources[index].readThroughIfDrained {
                    state.merger.noteSource(index, readThrough: through)
                }
            }
            state.merger.releaseHeld(at: .now).forEach { buffer.yield($0) }
            arm(&state)
        }
        ledger?.deliver()
    }

    private func close() {
        state.withLock { state in
            state.closed = true
            state.timer?.cancel()
        }
    }

    /// Sets the timer for the next held report, when it is earlier than the one set.
    private func arm(_ state: inout State) {
        guard !state.closed, let next = state.merger.nextCheck(at: .now) else { return }
        if let due = state.timerDue, due <= next { return }
        state.timer?.cancel()
        state.timerDue = next
        state.timer = Task { [self] in
            try? await Task.sleep(until: next, tolerance: nil, clock: .continuous)
            guard !Task.isCancelled else { return }
            release()
        }
    }
}
