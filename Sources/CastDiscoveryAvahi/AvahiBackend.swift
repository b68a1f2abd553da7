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
    /// The stream is bounded (`BackendEventBuffer`): the poll thread never waits for the
    /// consumer; events that come while 8,192 wait unread are folded into the newest state of
    /// each service, count and milestone, counted in `BackendStatistics.coalescedEvents`.
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

    /// Why avahi-daemon cannot be used now (no D-Bus, no daemon), or nil when it holds its name
    /// on the bus: the bus is asked (`AvahiBusName`), not the daemon, so the answer does not
    /// wait for a daemon that is busy. A daemon that holds its name but then refuses a client
    /// is told by the browse's start.
    public static func unavailability() -> DiscoveryError? {
        AvahiBusName.absence().map { AvahiDiagnosis.error(for: $0) }
    }
}

extension AvahiBackend: BufferedDiscoveryBackend {}
