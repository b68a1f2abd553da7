import Synchronization

/// Which services a merge's asking sources have resolved: what a daemon read for its cache beside
/// them (``MergedBackend/Role/cache``) consults before it resolves a copy itself, so that each
/// service is resolved once.
///
/// A daemon source given a ledger (``BrowseRequest/resolvedElsewhere``) waits ``deferral`` after
/// it first sees a copy, then resolves it only if no asking source has resolved its service by
/// then. It is told (``observe(_:)``) when a service it left to the others is no longer resolved
/// by any of them, and when the ledger closes (no asking source is left), so that it resolves
/// what it left after all: a device the daemon hears is never lost because another source let it
/// go.
public final class ResolutionLedger: Sendable, Hashable {
    /// What a daemon source is told: these services are no longer resolved by another source,
    /// or (``closed``) no other source resolves anything any more.
    public enum Notice: Sendable, Hashable {
        /// These services lost their last asking source's resolution.
        case released(Set<ServiceKey>)
        /// No asking source is left: resolve everything.
        case closed
    }

    private struct State {
        var resolved: Set<ServiceKey> = []
        var isOpen = true
        var observers: [Int: @Sendable (Notice) -> Void] = [:]
        var nextObserver = 0
        /// Releases not yet handed to the observers (``deliver()``).
        var released: Set<ServiceKey> = []
        var closeToDeliver = false
    }

    /// How long a daemon source waits after it first sees a copy before it resolves the copy
    /// itself: the asking sources' round and their first follow-up.
    public let deferral: Duration
    private let state = Mutex(State())

    /// Creates an open ledger with nothing resolved.
    public init(deferral: Duration) {
        self.deferral = deferral
    }

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
        }
    }

    /// Hands what was released or closed since the last call to the observers. Call it outside
    /// any lock an observer may wait for.
    package func deliver() {
        let (notice, observers): (Notice?, [@Sendable (Notice) -> Void]) = state.withLock { state in
            let notice: Notice?
            if state.closeToDeliver {
                notice = .closed
            } else if !state.released.isEmpty {
                notice = .released(state.released)
            } else {
                notice = nil
            }
            state.closeToDeliver = false
            state.released = []
            return (notice, Array(state.observers.values))
        }
        guard let notice else { return }
        for observer in observers { observer(notice) }
    }

    public static func == (lhs: ResolutionLedger, rhs: ResolutionLedger) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
