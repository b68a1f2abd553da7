internal import CAvahi

/// Owns an `AvahiClient`: one connection to avahi-daemon over D-Bus. Freeing it frees every
/// browser and resolver made on it. Guarded by the poll lock once the poll thread runs.
final class AvahiClient {
    private(set) var pointer: OpaquePointer?

    /// Connects. The first state callback runs synchronously, before this returns, with the
    /// new client pointer as its argument.
    init(
        poll: AvahiThreadedPoll, waitForDaemon: Bool,
        callback: AvahiClientCallback, userdata: UnsafeMutableRawPointer?
    ) throws(AvahiError) {
        var error: Int32 = 0
        let flags = waitForDaemon ? AVAHI_CLIENT_NO_FAIL : AvahiConstant.noClientFlags
        guard let pointer = avahi_client_new(poll.api, flags, callback, userdata, &error) else {
            throw AvahiError(code: error)
        }
        self.pointer = pointer
    }

    /// The client's last error.
    var lastError: AvahiError { AvahiError(code: pointer.map { avahi_client_errno($0) } ?? -1) }

    /// Frees the client and everything made on it; safe to call twice.
    func free() {
        if let pointer { avahi_client_free(pointer) }
        pointer = nil
    }
}
