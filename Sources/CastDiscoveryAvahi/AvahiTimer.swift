internal import CAvahi

/// Owns an `AvahiTimeout` on a threaded poll: a one-shot timer whose callback runs on the poll
/// thread with the lock held. Arm and disarm only on the poll thread (or under the lock).
final class AvahiTimer {
    private let api: UnsafePointer<AvahiPoll>
    private let pointer: OpaquePointer

    init(poll: AvahiThreadedPoll, callback: AvahiTimeoutCallback, userdata: UnsafeMutableRawPointer) throws(AvahiError)
    {
        api = poll.api
        guard let pointer = api.pointee.timeout_new(api, nil, callback, userdata) else { throw .noMemory }
        self.pointer = pointer
    }

    /// Fires the callback once, `milliseconds` from now (replacing any earlier arming).
    func arm(milliseconds: UInt32) {
        var when = timeval()
        avahi_elapse_time(&when, milliseconds, 0)
        api.pointee.timeout_update(pointer, &when)
    }

    /// Frees the timer. Not from its own callback's poll after the poll is freed.
    func free() { api.pointee.timeout_free(pointer) }
}
