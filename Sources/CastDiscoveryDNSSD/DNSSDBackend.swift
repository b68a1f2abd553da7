import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A discovery backend over Apple's DNS Service Discovery API (`dns_sd.h`): on Linux through
/// Avahi's compatibility library (libdns_sd, over avahi-daemon), on Apple platforms through the
/// system's mDNSResponder, with the same code.
///
/// It browses each type (subtypes in the `_googlecast._tcp,_CC1AD845` syntax), resolves each
/// instance on each interface, asks for its A and AAAA records, and keeps a TXT query open per
/// instance so TXT changes arrive as updates. It reports the same events as the Avahi backend.
/// dns_sd gives no all-for-now: a browse says it once it has run a second (avahi-daemon's own
/// all-for-now timer) with no new instance in the last 250 ms. A daemon restart is reported
/// as daemon lost, every service removed, then found again once the daemon answers.
public struct DNSSDBackend: DiscoveryBackend {
    /// The interface to browse on, by name; nil for every interface.
    public var interfaceName: String?
    /// The address families to resolve.
    public var families: Set<ServiceAddress.Family>
    /// The most resolves and address queries running at once (on Linux each costs a thread
    /// and a D-Bus connection in the compatibility library).
    public var maximumInFlight: Int
    /// The most TXT queries kept open (one per instance copy; later copies get no TXT updates).
    public var maximumMonitors: Int
    /// The longest a new device's first report waits for its other copies and addresses to
    /// resolve: one all-for-now round (1 s), not the other stacks' 150 ms, because resolves
    /// beyond ``maximumInFlight`` wait their turn behind the daemon (with 150 ms a busy machine
    /// reported devices with one address, then updated them at once). It delays only a device
    /// whose other copy is still resolving, which a scan waits for anyway.
    package var firstReportHold = DNSSDSession.allForNowAfter

    /// Creates the backend.
    public init(
        interfaceName: String? = nil, families: Set<ServiceAddress.Family> = [.ipv4, .ipv6],
        maximumInFlight: Int = 16, maximumMonitors: Int = 256
    ) {
        self.interfaceName = interfaceName
        self.families = families
        self.maximumInFlight = max(1, maximumInFlight)
        self.maximumMonitors = max(0, maximumMonitors)
    }

    /// The round a scan waits for after the cache: the all-for-now timer.
    public var queryRound: Duration { DNSSDSession.allForNowAfter }

    /// A first report waits 50 ms for copies not heard of yet (dns_sd reports an instance once
    /// per interface, the IP protocols a few milliseconds apart), and up to
    /// `firstReportHold` for its copies and addresses still resolving.
    public var firstReportWait: FirstReportWait { FirstReportWait(grace: .milliseconds(50), longest: firstReportHold) }

    /// Why the backend cannot run here now (no daemon behind dns_sd), or nil: it opens one
    /// browse and closes it.
    public func unavailability() -> DiscoveryError? {
        Self.silenceCompatibilityWarning()
        do throws(DNSSDError) {
            let probe = try DNSSDServiceRef.browse(ServiceType.googleCast.dnssdRegistrationType, interface: 0) { _ in }
            probe.close()
            return nil
        } catch {
            return error.discoveryError
        }
    }

    /// Browses through the dns_sd session until the iteration ends. The stream is bounded
    /// (`BackendEventBuffer`): the session's thread never waits for the consumer; events that
    /// come while 8,192 wait unread are folded into the newest state of each service, count and
    /// milestone, counted in `BackendStatistics.coalescedEvents`.
    public func events(for request: BrowseRequest) throws(DiscoveryError) -> AsyncStream<BackendEvent> {
        try eventBuffer(for: request).stream()
    }

    /// Starts the browses of `request`, whose events wait in the buffer returned (see
    /// ``events(for:)``).
    package func eventBuffer(for request: BrowseRequest) throws(DiscoveryError) -> BackendEventBuffer {
        Self.silenceCompatibilityWarning()
        let buffer = BackendEventBuffer()
        let session = try DNSSDSession(
            configuration: .init(
                browseTypes: request.browseTypes, serviceTypes: request.serviceTypesByName,
                interfaceName: interfaceName ?? request.filter.interfaceName,
                families: families.intersection(request.filter.families),
                maximumInFlight: maximumInFlight, maximumMonitors: maximumMonitors),
            buffer: buffer)
        buffer.onTermination = { session.stop() }
        do throws(LoopThread.Failure) {
            try LoopThread.start { session.run() }
        } catch {
            buffer.finish()
            throw DiscoveryError(kind: .other, message: "\(error)")
        }
        return buffer
    }

    /// Prepares Avahi's compatibility library, once, before the first call: it prints a
    /// warning to stderr on first use unless `AVAHI_COMPAT_NOWARN` is set, and its refs need
    /// zeroed memory to survive a daemon restart (see ``DNSSDServiceRef/prepareLibrary()``).
    static func silenceCompatibilityWarning() {
        _ = prepared
    }

    private static let prepared: Bool = {
        #if !canImport(Darwin)
        setenv("AVAHI_COMPAT_NOWARN", "1", 1)
        #endif
        DNSSDServiceRef.prepareLibrary()
        return true
    }()
}

extension DNSSDBackend: BufferedDiscoveryBackend {}
