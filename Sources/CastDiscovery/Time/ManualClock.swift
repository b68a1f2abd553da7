/// A clock that stands still until it is moved (``advance(by:)``): time as a parameter, for tests
/// of code that waits. Its instants are the continuous clock's, starting where it is told.
///
/// A sleeper wakes when the clock is moved to or past its deadline, in deadline order, or at
/// once with `CancellationError` when its task is cancelled.
public final class ManualClock: DiscoveryClock {
    private struct Sleeper {
        var deadline: ContinuousClock.Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: ContinuousClock.Instant
        var sleepers: [Int: Sleeper] = [:]
        var nextSleeper = 0
        /// Tests waiting for a number of sleepers (``waitForSleepers(_:)``).
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// Takes the watchers whose count of sleepers is reached.
        mutating func satisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
            let count = sleepers.count
            let satisfied = watchers.filter { $0.count <= count }.map(\.continuation)
            watchers.removeAll { $0.count <= count }
            return satisfied
        }
    }

    private let state: LockedValue<State>

    /// Creates a clock that reads `start` until it is moved.
    public init(start: ContinuousClock.Instant = ContinuousClock.now) {
        state = LockedValue(State(now: start))
    }

    /// The instant the clock was last moved to.
    public var now: ContinuousClock.Instant { state.withLock(\.now) }

    /// Nothing finer than an instant is told apart.
    public var minimumResolution: Duration { .zero }

    /// How many tasks sleep on this clock now.
    public var sleeperCount: Int { state.withLock(\.sleepers.count) }

    /// Sleeps until the clock is moved to `deadline` or past it; returns at once if it is there.
    public func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            defer { state.nextSleeper += 1 }
            return state.nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Start { case asleep, due, cancelled }
                let (start, watchers) = state.withLock { state -> (Start, [CheckedContinuation<Void, Never>]) in
                    if Task.isCancelled { return (.cancelled, []) }
                    if deadline <= state.now { return (.due, []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return (.asleep, state.satisfiedWatchers())
                }
                watchers.forEach { $0.resume() }
                switch start {
                case .asleep: break
                case .due: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock `duration` forward and wakes the sleepers whose deadline that reaches.
    public func advance(by duration: Duration) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: max(duration, .zero))
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            due.keys.forEach { state.sleepers[$0] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        woken.forEach { $0.continuation.resume() }
    }

    /// Waits until at least `count` tasks sleep on this clock: the code under test has reached
    /// its wait, so moving the clock now wakes it.
    public func waitForSleepers(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
