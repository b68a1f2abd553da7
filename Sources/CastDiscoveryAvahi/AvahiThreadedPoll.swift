internal import CAvahi

/// Owns an `AvahiThreadedPoll`: the thread every callback of one client runs on.
///
/// Once ``start()`` has run, calls into Avahi from any other thread must be made inside
/// ``withLock(_:)``; callbacks already hold the lock and must never take it, stop or free.
final class AvahiThreadedPoll: @unchecked Sendable {
    let pointer: OpaquePointer
    private var running = false

    init() throws(AvahiError) {
        guard let pointer = avahi_threaded_poll_new() else { throw .noMemory }
        self.pointer = pointer
    }

    /// The poll API a client is created on.
    var api: UnsafePointer<AvahiPoll> { avahi_threaded_poll_get(pointer) }

    /// Starts the poll thread.
    func start() throws(AvahiError) {
        let result = avahi_threaded_poll_start(pointer)
        guard result >= 0 else { throw AvahiError(code: result) }
        running = true
    }

    /// Stops and joins the poll thread. Not from the poll thread.
    func stop() {
        guard running else { return }
        avahi_threaded_poll_stop(pointer)
        running = false
    }

    /// Runs `body` holding the poll lock. Not from the poll thread.
    func withLock<T>(_ body: () throws -> T) rethrows -> T {
        avahi_threaded_poll_lock(pointer)
        defer { avahi_threaded_poll_unlock(pointer) }
        return try body()
    }

    deinit {
        stop()
        avahi_threaded_poll_free(pointer)
    }
}
