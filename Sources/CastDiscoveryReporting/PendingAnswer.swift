import CastDiscovery

/// An answer given once, to one waiter: by whichever comes first of the work that computes it
/// and a cancellation that gives up on it. Later answers are ignored.
final class PendingAnswer<Value: Sendable>: Sendable {
    private struct State {
        var waiter: CheckedContinuation<Value, Never>?
        var value: Value?
        var resumed = false
    }

    private let state = LockedValue(State())

    /// Resumes `continuation` with the answer: at once when it has been given, else when it is.
    func wait(with continuation: CheckedContinuation<Value, Never>) {
        let ready: Value? = state.withLock { state in
            guard let value = state.value, !state.resumed else {
                state.waiter = continuation
                return nil
            }
            state.resumed = true
            return value
        }
        if let ready { continuation.resume(returning: ready) }
    }

    /// Gives the answer, unless one was given before.
    func give(_ value: Value) {
        let waiter: CheckedContinuation<Value, Never>? = state.withLock { state in
            guard state.value == nil else { return nil }
            state.value = value
            guard let waiter = state.waiter, !state.resumed else { return nil }
            state.resumed = true
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: value)
    }
}
