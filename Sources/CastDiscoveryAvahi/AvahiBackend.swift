internal import CAvahi
import CastDiscovery
import Dispatch

/// The native Linux discovery backend: browses and resolves through avahi-daemon with
/// libavahi-client, one client on its own poll thread per browse.
public struct AvahiBackend: DiscoveryBackend {
    /// When true, a missing daemon is waited for (state `connecting`) instead of an error.
    public var waitForDaemon: Bool

    /// Creates the backend.
    public init(waitForDaemon: Bool = false) {
        self.waitForDaemon = waitForDaemon
    }

    /// Browses `browseTypes` until the iteration ends.
    ///
    /// After a daemon restart every known service is reported removed, then found again when
    /// the daemon has it again. Ending the iteration stops the poll thread and frees every
    /// Avahi object of the browse.
    /// avahi-daemon has no passive mode: `request.passive` changes nothing. The request filter's
    /// interface is the one browsed; its families are left to the manager, since a copy heard
    /// over one protocol may resolve to an address of the other.
    ///
    /// The stream is bounded (``BackendEventBuffer``): the poll thread never waits for the
    /// consumer; events that come while 8,192 wait unread are folded into the newest state of
    /// each service, count and milestone, counted in ``BackendStatistics/coalescedEvents``.
    public func events(for request: BrowseRequest) throws(DiscoveryError) -> AsyncStream<BackendEvent> {
        try eventBuffer(for: request).stream()
    }

    /// Starts the browses of `request`, whose events wait in the buffer returned (see
    /// ``events(for:)``).
    package func eventBuffer(for request: BrowseRequest) throws(DiscoveryError) -> BackendEventBuffer {
        let buffer = BackendEventBuffer()
        let session = try AvahiBrowseSession(request: request, buffer: buffer)
        buffer.onTermination = {
            // May run on the poll thread (when the session finishes the stream itself), where
            // stopping the poll would deadlock: tear down from another thread.
            Self.teardownQueue.async { session.shutdown() }
        }
        do {
            try session.start(waitForDaemon: waitForDaemon)
        } catch {
            session.shutdown()
            throw error
        }
        return buffer
    }

    private static let teardownQueue = DispatchQueue(label: "cast-discovery.avahi.teardown")

    /// Why avahi-daemon cannot be used now (no D-Bus, no daemon), or nil when it answers: a
    /// client connects and is freed at once, without browsing anything.
    public static func unavailability() -> DiscoveryError? {
        let poll: AvahiThreadedPoll
        do throws(AvahiError) {
            poll = try AvahiThreadedPoll()
        } catch {
            return AvahiDiagnosis.error(for: error)
        }
        do throws(AvahiError) {
            let client = try AvahiClient(poll: poll, waitForDaemon: false, callback: probeCallback, userdata: nil)
            client.free()
            return nil
        } catch {
            return AvahiDiagnosis.error(for: error)
        }
    }
}

/// The probe's client callback: nothing to do (the first call runs inside avahi_client_new).
private let probeCallback: AvahiClientCallback = { _, _, _ in }

extension AvahiBackend: BufferedDiscoveryBackend {}
