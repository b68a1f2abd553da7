/// Which services a merge's asking sources have resolved: what a daemon read for its cache beside
/// them (``MergedBackend/Role/cache``) consults before it resolves a copy itself, so that each
/// service is resolved once.
///
/// A daemon source given a ledger (``BrowseRequest/resolvedElsewhere``) leaves the copies it sees
/// during the asking sources' first round to them: it resolves such a copy only once they have
/// all said all-for-now with nothing pending (``Notice/settled``) and not resolved its service,
/// or ``firstRoundLimit`` after it saw the copy. After that first round, it waits ``deferral``
/// after it first sees a copy (a device that comes later), then resolves it only if no asking
/// source has resolved its service by then. It is told (``observe(_:)``) when a service it left
/// to the others is no longer resolved by any of them, and when the ledger closes (no asking
/// source is left), so that it resolves what it left after all: a device the daemon hears is
/// never lost because another source let it go.
public final class ResolutionLedger: Sendable, Hashable {
    /// What a daemon source is told: these services are no longer resolved by another source,
    /// or (``closed``) no other source resolves anything any more.
    public enum Notice: Sendable, Hashable {
        /// These services lost their last asking source's resolution.
        case released(Set<ServiceKey>)
        /// No asking source is left: resolve everything.
        case closed
        /// Every asking source has finished its first round (all-for-now, nothing pending):
        /// what they have not resolved by now is the daemon's to resolve.
        case settled
    }

    private struct State {
        var resolved: Set<ServiceKey> = []
        var isOpen = true
        var observers: [Int: @Sendable (Notice) -> Void] = [:]
        var nextObserver = 0
        /// Releases not yet handed to the observers (``deliver()``).
        var released: Set<ServiceKey> = []
        var closeToDeliver = false
        var isSettled = false
        var settleToDeliver = false
    }

    /// How long a daemon source waits after it first sees a copy before it resolves the copy
    /// itself: the asking sources' round and their first follow-up.
    public let deferral: Duration
    /// How long a daemon source leaves a copy seen during the asking sources' first round to
    /// them at most: a guard for a first round that never ends (an asking source that never
    /// says all-for-now); 2 s, more than twice the querier's first round at 500 devices (measured
    /// 0.75-1.0 s on two loaded cores).
    public let firstRoundLimit: Duration
    private let state = LockedValue(State())

    /// Creates an open ledger with nothing resolved, in the asking sources' first round.
    public init(deferral: Duration, firstRoundLimit: Duration = .seconds(2)) {
        self.deferral = deferral
        self.firstRoundLimit = firstRoundLimit
    }

    /// Whether the asking sources have finished their first round (``Notice/settled``).
    public var isSettled: Bool { state.withLock(\.isSettled) }

    /// How long a daemon source leaves a copy it sees now to the asking sources.
    public var currentDeferral: Duration { isSettled ? deferral : firstRoundLimit }

    /// Whether an asking source has resolved `service` (always false once closed).
    public func isResolved(_ service: ServiceKey) -> Bool {
        state.withLock { $0.isOpen && $0.resolved.contains(service) }
    }

    /// Whether asking sources are still resolving (not closed).
    public var isOpen: Bool { state.withLock(\.isOpen) }

    /// Calls `observer` with every notice from now on, on the thread that delivers it (never
    /// under a lock of the merge). Returns a token for ``stopObserving(_:)``.
    public func observe(_ observer: @escaping @Sendable (Notice) -> Void) -> Int {
        state.withLock { state in
            defer { state.nextObserver += 1 }
            state.observers[state.nextObserver] = observer
            return state.nextObserver
        }
    }

    /// Stops the calls to the observer of `token`.
    public func stopObserving(_ token: Int) {
        _ = state.withLock { $0.observers.removeValue(forKey: token) }
    }

    /// Records whether an asking source resolves `service` now; a service that stops being
    /// resolved is released to the observers at the next ``deliver()``.
    package func set(_ service: ServiceKey, resolved: Bool) {
        state.withLock { state in
            guard state.isOpen else { return }
            if resolved {
                state.resolved.insert(service)
                state.released.remove(service)
            } else if state.resolved.remove(service) != nil {
                state.released.insert(service)
            }
        }
    }

    /// Closes the ledger: no asking source is left, so daemon sources resolve everything.
    package func close() {
        state.withLock { state in
            guard state.isOpen else { return }
            state.isOpen = false
            state.resolved = []
            state.released = []
            state.closeToDeliver = true
            state.settleToDeliver = false
        }
    }

    /// Notes that every asking source has finished its first round; once.
    package func settle() {
        state.withLock { state in
            guard state.isOpen, !state.isSettled else { return }
            state.isSettled = true
            state.settleToDeliver = true
        }
    }

    /// Hands what was released, settled or closed since the last call to the observers, in
    /// that order (closed alone: it says everything). Call it outside any lock an observer may
    /// wait for.
    package func deliver() {
        let (notices, observers): ([Notice], [@Sendable (Notice) -> Void]) = state.withLock { state in
            var notices: [Notice] = []
            if state.closeToDeliver {
                notices = [.closed]
            } else {
                if !state.released.isEmpty { notices.append(.released(state.released)) }
                if state.settleToDeliver { notices.append(.settled) }
            }
            state.closeToDeliver = false
            state.settleToDeliver = false
            state.released = []
            return (notices, Array(state.observers.values))
        }
        for notice in notices {
            for observer in observers { observer(notice) }
        }
    }

    public static func == (lhs: ResolutionLedger, rhs: ResolutionLedger) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
