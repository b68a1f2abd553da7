@testable import CastDiscovery
@testable import CastDiscoveryMDNS
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A UDP socket bound to 127.0.0.1 that plays a host answering (or misbehaving) on loopback.
final class LoopbackPeer: Sendable {
    let descriptor: Int32
    let port: UInt16

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        descriptor = fd
        port = UInt16(bigEndian: address.sin_port)
    }

    deinit { close(descriptor) }

    /// The next datagram within `seconds`, with the sender's port.
    func receive(within seconds: Int32 = 5) -> (bytes: [UInt8], port: UInt16)? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, seconds * 1000) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 9000)
        var source = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let count = withUnsafeMutablePointer(to: &source) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                recvfrom(descriptor, &buffer, buffer.count, 0, $0, &length)
            }
        }
        guard count >= 0 else { return nil }
        return (Array(buffer.prefix(count)), UInt16(bigEndian: source.sin_port))
    }

    /// Sends `bytes` to 127.0.0.1:`port`.
    func send(_ bytes: [UInt8], to port: UInt16) {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(descriptor, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }
}

@Suite("KnownHostsQuerier")
struct KnownHostsQuerierTests {
    static let type = try! DNSName(parsing: "_googlecast._tcp.local")
    static let instance = try! DNSName(parsing: "Chromecast-abc._googlecast._tcp.local")
    static let target = try! DNSName(parsing: "abc.local")

    /// A buffer for the querier, and its events merged as a ``DiscoveryManager`` merges them.
    static func mergedStream() -> (AsyncStream<BackendEvent>, BackendEventBuffer) {
        let buffer = BackendEventBuffer()
        return (
            MergedEventStream.start(buffers: [buffer], merger: BackendMerger(single: .standard), ledger: nil), buffer
        )
    }

    static func response(id: UInt16, _ answers: [DNSResourceRecord]) throws -> [UInt8] {
        try DNSMessage(id: id, flags: DNSMessage.responseFlag | DNSMessage.authoritativeFlag, answers: answers)
            .encoded()
    }

    @Test("asks only the host, follows up what the answer lacks, ignores and counts garbage, strangers and wrong ids")
    func unicastRound() async throws {
        let host = try LoopbackPeer()
        let stranger = try LoopbackPeer()
        let (stream, buffer) = Self.mergedStream()
        let known = KnownHost(text: "tv.example", addresses: [SocketAddress(bytes: [127, 0, 0, 1], port: host.port)])
        let querier = try KnownHostsQuerier(
            hosts: [known], request: try BrowseRequest(parsing: ["_googlecast._tcp"]), interval: .seconds(60),
            buffer: buffer)
        Thread.detachNewThread { querier.run() }
        defer { querier.stop() }

        let query = try #require(host.receive(), "the querier asked the host")
        let asked = try DNSMessage(decoding: query.bytes)
        #expect(!asked.isResponse && asked.id != 0, "a legacy-unicast query carries an id")
        #expect(asked.questions.map(\.name) == [Self.type] && asked.questions.map(\.type) == [.ptr])
        #expect(query.port != 5353, "from an ephemeral port")

        let ptr = DNSResourceRecord(name: Self.type, ttl: 120, data: .ptr(Self.instance))
        stranger.send(try Self.response(id: asked.id, [ptr]), to: query.port)  // another address:port
        host.send([0xde, 0xad, 0xbe, 0xef], to: query.port)  // garbage
        host.send(try Self.response(id: asked.id &+ 1, [ptr]), to: query.port)  // not its query
        host.send(try Self.response(id: asked.id, [ptr]), to: query.port)  // the PTR alone

        let followUp = try #require(host.receive(), "the querier asked for what the PTR lacks")
        let missing = try DNSMessage(decoding: followUp.bytes)
        #expect(Set(missing.questions.map(\.type)) == [.srv, .txt])
        host.send(
            try Self.response(
                id: asked.id,
                [
                    DNSResourceRecord(
                        name: Self.instance, ttl: 120,
                        data: .srv(priority: 0, weight: 0, port: 8009, target: Self.target)),
                    DNSResourceRecord(
                        name: Self.instance, ttl: 4500,
                        data: .txt(TXTRecord(strings: [Array("id=abc".utf8), Array("fn=TV".utf8)]))),
                    DNSResourceRecord(name: Self.target, ttl: 120, data: .a(IPv4Address(10, 9, 9, 9))),
                ]), to: followUp.port)

        var found: [DiscoveredService] = []
        var statistics: BackendStatistics?
        var allForNow = false
        for await event in stream {
            switch event {
            case .found(let service): found.append(service)
            case .statistics(let counts): statistics = counts
            case .allForNow: allForNow = true
            default: break
            }
            if allForNow { break }
        }
        #expect(found.count == 1)
        let service = try #require(found.first).service
        #expect(service.instanceName == "Chromecast-abc")
        #expect(service.port == 8009 && service.hostName == "abc.local")
        #expect(service.addresses.map(\.address) == ["10.9.9.9"])
        #expect(service.knownHost == "tv.example")
        #expect(statistics?.malformedPackets == 1)
        #expect(statistics?.ignoredPackets == 2, "the stranger's answer and the wrong id")
        #expect(statistics?.unansweredHosts == [])
    }

    @Test("a host that never answers: asked three times, then listed unanswered, and all-for-now")
    func silentHost() async throws {
        let host = try LoopbackPeer()
        let (stream, buffer) = Self.mergedStream()
        let known = KnownHost(text: "127.0.0.1", addresses: [SocketAddress(bytes: [127, 0, 0, 1], port: host.port)])
        // The next round a day away: however long a loaded parallel run keeps this task from
        // counting (over a minute was seen), only this round's queries are there.
        let querier = try KnownHostsQuerier(
            hosts: [known], request: try BrowseRequest(parsing: ["_googlecast._tcp"]), interval: .seconds(86_400),
            buffer: buffer)
        Thread.detachNewThread { querier.run() }
        defer { querier.stop() }
        var statistics: BackendStatistics?
        for await event in stream {
            if case .statistics(let counts) = event { statistics = counts }
            if case .allForNow = event { break }
        }
        var queries = 0
        while host.receive(within: 0) != nil { queries += 1 }
        #expect(queries == KnownHostsQuerier.queryTries)
        #expect(statistics?.unansweredHosts == ["127.0.0.1"])
    }

    @Test("a host with an A and an AAAA: found with both, a changed TXT is one update, an instance gone is removed")
    func rounds() async throws {
        let host = try LoopbackPeer()
        let (stream, buffer) = Self.mergedStream()
        let known = KnownHost(text: "tv.example", addresses: [SocketAddress(bytes: [127, 0, 0, 1], port: host.port)])
        let querier = try KnownHostsQuerier(
            hosts: [known], request: try BrowseRequest(parsing: ["_googlecast._tcp"]), interval: .seconds(1),
            buffer: buffer)
        Thread.detachNewThread { querier.run() }
        defer { querier.stop() }

        func answer(_ txt: String) throws -> [DNSResourceRecord] {
            [
                DNSResourceRecord(name: Self.type, ttl: 120, data: .ptr(Self.instance)),
                DNSResourceRecord(
                    name: Self.instance, ttl: 120, data: .srv(priority: 0, weight: 0, port: 8009, target: Self.target)),
                DNSResourceRecord(
                    name: Self.instance, ttl: 4500,
                    data: .txt(TXTRecord(strings: [Array("id=abc".utf8), Array(txt.utf8)]))),
                DNSResourceRecord(name: Self.target, ttl: 120, data: .aaaa(try #require(IPv6Address("fd00::9")))),
                DNSResourceRecord(name: Self.target, ttl: 120, data: .aaaa(try #require(IPv6Address("fe80::9")))),
                DNSResourceRecord(name: Self.target, ttl: 120, data: .a(IPv4Address(10, 9, 9, 9))),
            ]
        }
        // Round 1: everything at once; round 2: the TXT changed; round 3: the instance is no
        // longer listed. Each round's query comes after the previous round's events; the fourth
        // says the third is over. The host plays on its own thread (its receives block), then
        // stops the querier, which ends the stream.
        let rounds = [try answer("fn=TV"), try answer("fn=Kitchen"), []]
        let (asked, askedContinuation) = AsyncStream<Int>.makeStream()
        Thread.detachNewThread {
            defer {
                querier.stop()
                askedContinuation.finish()
            }
            for (round, records) in rounds.enumerated() {
                guard let query = host.receive(), let id = try? DNSMessage(decoding: query.bytes).id,
                    let response = try? Self.response(id: id, records)
                else { return }
                host.send(response, to: query.port)
                askedContinuation.yield(round + 1)
            }
            if host.receive() != nil { askedContinuation.yield(rounds.count + 1) }
        }

        var changes: [BackendEvent] = []
        var pending: [Int] = []
        for await event in stream {
            switch event {
            case .found, .updated, .removed: changes.append(event)
            case .resolvesPending(let count): pending.append(count)
            default: break
            }
        }
        var queries = 0
        for await count in asked { queries = count }
        #expect(queries == 4, "the querier asked three rounds and began a fourth")
        guard changes.count == 3, case .found(let found) = changes[0], case .updated(let updated) = changes[1],
            case .removed(let removed) = changes[2]
        else {
            Issue.record("expected found, updated, removed; got \(changes)")
            return
        }
        #expect(
            found.service.addresses.map(\.address) == ["10.9.9.9", "fd00::9"],
            "A first, then the AAAA that is not link-local")
        #expect(found.service.addresses.map(\.family) == [.ipv4, .ipv6])
        #expect(found.service.txt == TXTRecord(strings: [Array("id=abc".utf8), Array("fn=TV".utf8)]))
        #expect(updated.service.addresses == found.service.addresses)
        #expect(updated.service.txt == TXTRecord(strings: [Array("id=abc".utf8), Array("fn=Kitchen".utf8)]))
        #expect(removed.key == found.key)
        #expect(pending.last == 0, "every copy resolves within its round: \(pending)")
    }

    @Test(
        "host texts: addresses parse without the resolver; what is no address or name is refused",
        arguments: [
            ("10.213.1.2", true), ("[fd00:ca57::1:2]", true), ("fd00::1", true), ("999.1.1.1", false), ("1.2.3", false),
            ("", false), ("tv\u{1B}[2J", false), ("a b", false), (String(repeating: "a", count: 300), false),
            ("::zz", false),
        ])
    func parsing(text: String, valid: Bool) {
        #expect(((try? KnownHost(text, families: [.ipv4, .ipv6])) != nil) == valid)
    }

    @Test("families: an IPv4 host with -6 has nothing to ask")
    func families() throws {
        #expect(throws: DiscoveryError.self) { try KnownHost("10.0.0.1", families: [.ipv6]) }
        let host = try KnownHost("fd00::1", families: [.ipv6])
        #expect(host.addresses.first?.isIPv6 == true && host.addresses.first?.port == 5353)
    }
}
