import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A discovery backend with its own mDNS querier: it needs no daemon, only UDP sockets, so it
/// works in containers, on minimal servers and in CI.
///
/// It shares port 5353 with any other stack on the host, asks on every usable interface (up,
/// multicast, not loopback; or the one named) for each allowed address family, and reports
/// the same events as the Avahi backend, per copy (interface × family). A one-shot scan asks
/// at once by legacy unicast, repeats after 75 ms while answers bring news, and says
/// all-for-now when a repeat brought nothing new; a watch then keeps querying (RFC 6762
/// section 5.2), follows TTLs, goodbyes and cache flushes, and notices interfaces that come
/// and go. It answers no query, and ignores answers from off the link they arrived on.
public struct MDNSBackend: DiscoveryBackend {
    /// The interface to use, by name; nil for every usable one.
    public var interfaceName: String?
    /// The address families to use.
    public var families: Set<ServiceAddress.Family>
    /// How long a device's first report waits for its other copies (another family's answer,
    /// on another socket), judged by how far the querier has read: 25 ms by default.
    public var firstReportGrace: Duration = MDNSQuerier.firstReportGrace

    /// Creates the backend.
    public init(interfaceName: String? = nil, families: Set<ServiceAddress.Family> = [.ipv4, .ipv6]) {
        self.interfaceName = interfaceName
        self.families = families
    }

    /// The querier's own round: answers to a legacy-unicast query come at once (7 ms at most
    /// from 500 devices in the lab); it waits 75 ms.
    public var queryRound: Duration { MDNSQuerier.responseWindow }

    /// A first report waits ``firstReportGrace`` for the device's other copies: the IPv4 and IPv6
    /// answers come on separate sockets, a few milliseconds apart.
    public var firstReportWait: FirstReportWait {
        FirstReportWait(grace: firstReportGrace, longest: max(firstReportGrace, FirstReportWait.standardLongest))
    }

    /// Why the querier cannot run here (no UDP socket for mDNS can be opened), or nil when it
    /// can: it opens and closes its sockets once.
    public func unavailability() -> DiscoveryError? {
        let (opened, failures) = tryOpening(ports: [5353, 0])
        guard opened == 0 else { return nil }
        return DiscoveryError(
            kind: .other, message: "cannot open an mDNS socket (\(failures.joined(separator: "; ")))",
            fix: "check that this process may open UDP sockets (a container may forbid it)")
    }

    /// Why the querier cannot share port 5353 with a daemon here (no socket of an allowed family
    /// can bind it), or nil when it can. Without the port it hears only the answers to its own
    /// legacy-unicast queries: not the announcements, goodbyes and answers to other queriers that
    /// keep a watch up to date.
    public func sharingUnavailability() -> DiscoveryError? {
        let (opened, failures) = tryOpening(ports: [5353])
        guard opened == 0 else { return nil }
        return DiscoveryError(
            kind: .other, message: "port 5353 cannot be shared (\(failures.joined(separator: "; ")))",
            fix: "the program that holds port 5353 must set SO_REUSEADDR, as avahi-daemon does")
    }

    /// Opens (and closes) a socket on each of `ports` (0: an ephemeral one) for each allowed
    /// family: how many opened, and why the others did not.
    private func tryOpening(ports: [UInt16]) -> (opened: Int, failures: [String]) {
        var failures: [String] = []
        var opened = 0
        for ipv6 in [false, true] where families.contains(ipv6 ? .ipv6 : .ipv4) {
            for port in ports {
                do throws(MDNSSocketError) {
                    _ = try MDNSSocket(ipv6: ipv6, port: port)
                    opened += 1
                } catch {
                    failures.append("\(ipv6 ? "IPv6" : "IPv4") \(port == 0 ? "query socket" : "port 5353"): \(error)")
                }
            }
        }
        return (opened, failures)
    }

    /// The names of the interfaces the querier would use now (up, multicast, not loopback, with
    /// an address of an allowed family; or the one named).
    public func interfaces() -> [String] {
        NetworkInterface.all().filter { interface in
            interface.isUsable && (interfaceName == nil || interface.name == interfaceName)
                && ((families.contains(.ipv4) && !interface.ipv4.isEmpty)
                    || (families.contains(.ipv6) && !interface.ipv6.isEmpty))
        }.map(\.name)
    }

    /// Runs the querier until the iteration ends. The stream is bounded
    /// (`BackendEventBuffer`): the querier's thread never waits for the consumer; events that
    /// come while 8,192 wait unread are folded into the newest state of each service, count and
    /// milestone, counted in `BackendStatistics.coalescedEvents` of its statistics.
    public func events(for request: BrowseRequest) throws(DiscoveryError) -> AsyncStream<BackendEvent> {
        try eventBuffer(for: request).stream()
    }

    /// Starts the browses of `request`, whose events wait in the buffer returned (see
    /// ``events(for:)``).
    package func eventBuffer(for request: BrowseRequest) throws(DiscoveryError) -> BackendEventBuffer {
        let buffer = BackendEventBuffer()
        // Where the backend may ask, narrowed to what the manager will show.
        let querier = try MDNSQuerier(
            configuration: .init(
                request: request, interfaceName: interfaceName ?? request.filter.interfaceName,
                families: families.intersection(request.filter.families), firstReportGrace: firstReportGrace),
            buffer: buffer)
        buffer.onTermination = { querier.stop() }
        do throws(LoopThread.Failure) {
            try LoopThread.start { querier.run() }
        } catch {
            buffer.finish()
            throw DiscoveryError(kind: .other, message: "\(error)")
        }
        return buffer
    }
}

extension MDNSBackend: BufferedDiscoveryBackend {}
