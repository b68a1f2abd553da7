import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A discovery backend that asks the hosts the user named, each at its address, for the Cast
/// services it has: for when multicast does not get through (Docker bridges, routers that drop
/// multicast between wired and wireless, VLANs, client isolation).
///
/// Each host gets a DNS-SD query by unicast to its port 5353 from an ephemeral port (RFC 6762
/// sections 5.5 and 6.7) for the browse types' PTR records; what the answer lacks (SRV, TXT,
/// A, AAAA) is asked for. Only the given addresses are ever asked; an answer from any other
/// address, or not from port 5353, or not echoing the query's id, is ignored and counted, as is
/// anything the codec rejects. A scan is all-for-now once every host answered or used up its
/// tries. A watch asks each host again every ``interval``; a host that leaves two rounds
/// unanswered has its devices removed, and they come back when it answers again. Hosts that
/// did not answer their last round are listed in `BackendStatistics.unansweredHosts`.
public struct KnownHostsBackend: DiscoveryBackend {
    /// The hosts, as the user gave them: addresses or names.
    public let hosts: [String]
    /// How long between a watch's rounds.
    public var interval: Duration
    /// The address families used.
    public let families: Set<ServiceAddress.Family>
    /// The hosts parsed, names looked up once, when the backend was made.
    let parsed: [KnownHost]

    /// The most hosts one backend asks.
    public static let maximumHosts = 64

    /// Creates the backend: parses each host (addresses never reach the resolver; names are
    /// looked up now, once).
    ///
    /// - Throws: ``KnownHostError`` naming the host that is no address and does not resolve, or
    ///   none when there is no host or more than ``maximumHosts``.
    public init(
        hosts: [String], interval: Duration = .seconds(30), families: Set<ServiceAddress.Family> = [.ipv4, .ipv6]
    ) throws(KnownHostError) {
        guard !hosts.isEmpty else {
            throw KnownHostError(
                host: nil,
                error: DiscoveryError(kind: .badInput, message: "no host to ask", fix: "give at least one --host"))
        }
        guard hosts.count <= Self.maximumHosts else {
            throw KnownHostError(
                host: nil,
                error: DiscoveryError(
                    kind: .badInput, message: "\(hosts.count) hosts; at most \(Self.maximumHosts) are asked"))
        }
        var parsed: [KnownHost] = []
        for host in hosts where !parsed.contains(where: { $0.text == host }) {
            do throws(DiscoveryError) {
                parsed.append(try KnownHost(host, families: families))
            } catch {
                throw KnownHostError(host: host, error: error)
            }
        }
        self.hosts = hosts
        self.interval = interval
        self.families = families
        self.parsed = parsed
    }

    /// A host's answer comes within a network round trip; the querier waits for it itself and
    /// says all-for-now when every host is done.
    public var queryRound: Duration { KnownHostsQuerier.answerWait }

    /// Asks the known hosts until the iteration ends. The stream is bounded
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
        let querier = try KnownHostsQuerier(
            hosts: parsed, request: request, interval: interval,
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

extension KnownHostsBackend: BufferedDiscoveryBackend {}
