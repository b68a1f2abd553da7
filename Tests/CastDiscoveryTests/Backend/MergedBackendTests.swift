@testable import CastDiscovery
import Testing

@Suite("MergedBackend")
struct MergedBackendTests {
    static func service(_ name: String, _ address: String, knownHost: String? = nil) -> DiscoveredService {
        DiscoveredService(
            service: ResolvedService(
                instanceName: name, hostName: "h.local", port: 8009, addresses: [ServiceAddress(address)!],
                txt: TXTRecord(strings: [Array("id=1".utf8)]), knownHost: knownHost),
            browseTypes: [DiscoveryCriteria.serviceType])
    }

    @Test("one service however many sources see it; removed when the last one lets it go")
    func oneService() {
        var merger = Merger(sources: 2)
        let multicast = Self.service("TV", "10.0.0.2")
        let host = Self.service("TV", "10.0.0.2", knownHost: "10.0.0.2")
        #expect(merger.take(.found(multicast), from: 0) == [.found(multicast)])
        let both = merger.take(.found(host), from: 1)
        guard case .updated(let merged)? = both.first else { Issue.record("\(both)"); return }
        #expect(merged.service.knownHost == "10.0.0.2" && merged.service.addresses.count == 1)
        #expect(merger.take(.removed(multicast), from: 0).isEmpty, "still seen by the host, the same: no event")
        #expect(merger.take(.removed(host), from: 1) == [.removed(host)])
    }

    @Test("all-for-now and cache-exhausted once every source said so; pending resolves summed")
    func browses() {
        var merger = Merger(sources: 2)
        let type = DiscoveryCriteria.serviceType
        #expect(merger.take(.browseStarted(browseType: type), from: 0) == [.browseStarted(browseType: type)])
        #expect(merger.take(.browseStarted(browseType: type), from: 1).isEmpty)
        #expect(merger.take(.allForNow(browseType: type), from: 1).isEmpty)
        #expect(merger.take(.allForNow(browseType: type), from: 0) == [.allForNow(browseType: type)])
        #expect(merger.take(.allForNow(browseType: type), from: 0).isEmpty, "once")
        #expect(merger.take(.resolvesPending(2), from: 0) == [.resolvesPending(2)])
        #expect(merger.take(.resolvesPending(1), from: 1) == [.resolvesPending(3)])
        #expect(!merger.end(0).done && merger.end(1).done)
    }

    @Test("a source that ends waits for nothing: its unfinished browses finish for it, its pending resolves go")
    func endedSource() {
        var merger = Merger(sources: 2)
        let type = DiscoveryCriteria.serviceType
        _ = merger.take(.browseStarted(browseType: type), from: 0)
        _ = merger.take(.resolvesPending(2), from: 0)
        #expect(merger.take(.allForNow(browseType: type), from: 1).isEmpty)
        let ended = merger.end(0)
        #expect(!ended.done)
        #expect(ended.events.contains(.allForNow(browseType: type)))
        #expect(ended.events.last == .resolvesPending(0))
    }

    @Test("the same address from two sources is listed once, with the multicast one's interface")
    func addresses() {
        var merger = Merger(sources: 2)
        var multicast = Self.service("TV", "10.0.0.2")
        multicast.service.addresses = [ServiceAddress("10.0.0.2", interfaceName: "eth0", interfaceIndex: 2)!]
        _ = merger.take(.found(multicast), from: 0)
        let events = merger.take(.found(Self.service("TV", "10.0.0.2", knownHost: "tv")), from: 1)
        guard case .updated(let merged)? = events.first else { Issue.record("\(events)"); return }
        #expect(merged.service.addresses.map(\.interfaceName) == ["eth0"])
        #expect(merged.service.knownHost == "tv")
    }

    @Test("only the first source's states pass, and any source's failure")
    func states() {
        var merger = Merger(sources: 2)
        #expect(merger.take(.stateChanged(.running), from: 1).isEmpty)
        #expect(merger.take(.stateChanged(.daemonLost), from: 0) == [.stateChanged(.daemonLost)])
        let failure = DiscoveryError(kind: .other, message: "x")
        #expect(merger.take(.stateChanged(.failed(failure)), from: 1) == [.stateChanged(.failed(failure))])
    }
}
