import CastDiscovery
import Foundation

/// A discovery backend with its own mDNS querier: it needs no daemon, only UDP sockets, so it
/// works in containers, on minimal servers and in CI.
///
/// It shares port 5353 with any other stack on the host, asks on every usable interface (up,
/// multicast, not loopback; or the one named) for each allowed address family, and reports
/// the same events as the Avahi backend, per copy (interface × family). A one-shot scan asks
/// at once by legacy unicast, repeats after 100 ms while answers bring news, and says
/// all-for-now when a repeat brought nothing new; a watch then keeps querying (RFC 6762
/// section 5.2), follows TTLs, goodbyes and cache flushes, and notices interfaces that come
/// and go. It answers no query, and ignores answers from off the link they arrived on.
public struct MDNSBackend: DiscoveryBackend {
    /// The interface to use, by name; nil for every usable one.
    public var interfaceName: String?
    /// The address families to use.
    public var families: Set<ServiceAddress.Family>

    /// Creates the backend.
    public init(interfaceName: String? = nil, families: Set<ServiceAddress.Family> = [.ipv4, .ipv6]) {
        self.interfaceName = interfaceName
        self.families = families
    }

    /// The querier's own round: answers to a legacy-unicast query come at once (7 ms at most
    /// from 500 devices in the lab); it waits 100 ms.
    public var queryRound: Duration { MDNSQuerier.responseWindow }

    public func events(for request: BrowseRequest) throws(DiscoveryError) -> AsyncStream<BackendEvent> {
        guard !request.browseTypes.isEmpty else {
            throw DiscoveryError(kind: .invalidBrowseType, message: "nothing to browse", fix: "pass at least one browse type")
        }
        let (stream, continuation) = AsyncStream<BackendEvent>.makeStream(bufferingPolicy: .unbounded)
        let querier = try MDNSQuerier(
            configuration: .init(
                browseTypes: request.browseTypes, interfaceName: interfaceName, families: families, passive: request.passive),
            continuation: continuation)
        continuation.onTermination = { _ in querier.stop() }
        Thread.detachNewThread { querier.run() }
        return stream
    }
}
