@testable import CastDiscovery
@testable import CastDiscoveryMDNS
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The querier fed packets in-process (``MDNSQuerierHarness``): no socket, no network, and time
/// only as the instants the tests pass.
@Suite("MDNSQuerier: answers in, events and queries out")
struct MDNSQuerierTests {
    typealias Harness = MDNSQuerierHarness
    static let type = Harness.browseType
    static let group = SocketAddress(bytes: [224, 0, 0, 251], port: 5353)
    static let ptrQuestion = DNSQuestion(name: SimulatedCastDevice.serviceName, type: .ptr)

    static func v6(_ prefix: [UInt8], _ last: UInt8) -> [UInt8] {
        prefix + [UInt8](repeating: 0, count: 15 - prefix.count) + [last]
    }

    /// An IPv4-only interface.
    static let eth0 = NetworkInterface(
        name: "eth0", index: 2, isUp: true, isLoopback: false, supportsMulticast: true,
        ipv4: [.init(address: [192, 168, 1, 10], length: 24)], ipv6: [])
    /// The same interface with IPv6 too: a link-local address and an on-link ULA prefix.
    static let dualEth0 = NetworkInterface(
        name: "eth0", index: 2, isUp: true, isLoopback: false, supportsMulticast: true,
        ipv4: [.init(address: [192, 168, 1, 10], length: 24)],
        ipv6: [
            .init(address: v6([0xFE, 0x80], 0x10), length: 64), .init(address: v6([0xFD, 0, 0, 1], 0x10), length: 64),
        ])
    /// An IPv6-only interface.
    static let eth1 = NetworkInterface(
        name: "eth1", index: 4, isUp: true, isLoopback: false, supportsMulticast: true,
        ipv4: [],
        ipv6: [
            .init(address: v6([0xFE, 0x80], 0x05), length: 64), .init(address: v6([0xFD, 0, 0, 2], 0x05), length: 64),
        ])

    static let device = SimulatedCastDevice(
        uuid: "0123456789abcdef0123456789abcdef", friendlyName: "Living Room", ipv4: IPv4Address(192, 168, 1, 20))
    static let fromDevice = SocketAddress(bytes: [192, 168, 1, 20], port: 5353)
    static let fromDeviceV6 = SocketAddress(bytes: v6([0xFE, 0x80], 0x20), port: 5353)
    static let deviceAddress = ServiceAddress("192.168.1.20", interfaceName: "eth0", interfaceIndex: 2)!

    static func copy(_ device: SimulatedCastDevice, on interface: Int32 = 2, _ family: ServiceAddress.Family = .ipv4)
        -> ServiceCopyKey
    {
        ServiceCopyKey(service: device.key, interfaceIndex: interface, transport: family)
    }

    /// The device as the querier should report it.
    static func discovered(_ device: SimulatedCastDevice, _ addresses: [ServiceAddress] = [deviceAddress])
        -> DiscoveredService
    {
        DiscoveredService(
            service: ResolvedService(
                instanceName: device.key.name, hostName: "\(device.uuid).local", port: device.port,
                addresses: addresses, txt: device.txt),
            browseTypes: [type])
    }

    static func counts(
        received: Int = 0, malformed: Int = 0, malformedRecords: Int = 0, offLink: Int = 0, ignored: Int = 0,
        dropped: Int = 0,
        queries: Int
    ) -> BackendStatistics {
        var counts = BackendStatistics()
        counts.packetsReceived = received
        counts.malformedPackets = malformed
        counts.malformedRecords = malformedRecords
        counts.offLinkPackets = offLink
        counts.ignoredPackets = ignored
        counts.droppedRecords = dropped
        counts.queriesSent = queries
        return counts
    }

    /// A querier on ``eth0`` that has found ``device`` from the answer to its first query, at 5 ms.
    static func resolved(_ device: SimulatedCastDevice = device) async throws -> Harness {
        let harness = try Harness(interfaces: [eth0])
        harness.start()
        _ = await harness.events()
        let legacy = try #require(harness.queries().first { $0.legacy })
        try harness.deliver(
            device.answer(id: legacy.message.id), from: fromDevice, on: 2, legacy: true, at: .milliseconds(5))
        await harness.expectEvents([.copyAdded(copy(device), browseType: type), .found(discovered(device))])
        return harness
    }

    // MARK: - Resolving

    @Test(
        "the backend's first report waits its grace: 25 ms unless set, and at least the standard longest for copies resolving"
    )
    func firstReportGrace() {
        #expect(MDNSBackend().firstReportWait == FirstReportWait(grace: .milliseconds(25)))
        var patient = MDNSBackend()
        patient.firstReportGrace = .seconds(1)
        #expect(patient.firstReportWait == FirstReportWait(grace: .seconds(1), longest: .seconds(1)))
    }

    @Test("each link's cache refreshes 0 to 2% late, drawn from the querier's generator: the same seed, the same")
    func cacheJitterFromTheGenerator() throws {
        func jitters(seed: UInt64) throws -> [Double] {
            let harness = try Harness(interfaces: [Self.dualEth0, Self.eth1], jitter: JitterGenerator(seed: seed))
            harness.start()
            return harness.querier.links.keys.sorted().compactMap { harness.querier.links[$0]?.cache.jitter }
        }
        // The links are made in the order of their ids, each drawing the next number.
        var generator = JitterGenerator(seed: 11)
        let expected = (0..<3).map { _ in 0.02 * generator.nextFraction() }
        #expect(try jitters(seed: 11) == expected)
        #expect(expected.allSatisfy { $0 >= 0 && $0 < 0.02 } && Set(expected).count == 3)
        #expect(try jitters(seed: 12) != expected)
    }

    @Test("the first queries: a legacy-unicast one with an id and a multicast one, to the group on the interface")
    func firstQueries() async throws {
        let harness = try Harness(interfaces: [Self.eth0])
        harness.start()
        await harness.expectEvents([.stateChanged(.running), .browseStarted(browseType: Self.type)])
        let queries = harness.queries()
        #expect(queries.map(\.legacy) == [true, false])
        for query in queries {
            #expect(query.destination == Self.group && query.interface == 2)
            #expect(
                !query.message.isResponse && query.message.questions == [Self.ptrQuestion]
                    && query.message.answers.isEmpty)
        }
        #expect(queries.first?.message.id != 0 && queries.last?.message.id == 0)
    }

    @Test("an answer resolves the device: found with its address tagged with the interface, counted")
    func answerResolves() async throws {
        let harness = try await Self.resolved()
        #expect(harness.reportedStatistics == Self.counts(queries: 2))
        #expect(harness.querier.statistics == Self.counts(received: 1, queries: 2))
        // The burst: a repeat at 75 ms (listing the PTR held), quiet, all for now at 150 ms.
        harness.advance(to: .milliseconds(75))
        let repeats = harness.queries()
        #expect(Self.isRepeat(repeats, answers: [Self.device.ptr()]))
        harness.advance(to: .milliseconds(150))
        await harness.expectEvents([.allForNow(browseType: Self.type)])
        harness.advance(to: .seconds(1))
        await harness.expectEvents([])
        // Two first queries, the repeat's copies, the continuous query at 1 s; then the counts,
        // once a second.
        #expect(harness.reportedStatistics == Self.counts(received: 1, queries: 2 + MDNSQuerier.repeatCopies + 1))
    }

    @Test("a goodbye (TTL 0) removes the device one second later")
    func goodbye() async throws {
        let harness = try await Self.resolved()
        try harness.deliver(Self.device.answer(ttl: 0), from: Self.fromDevice, on: 2, at: .seconds(10))
        await harness.expectEvents([.allForNow(browseType: Self.type)])
        harness.advance(to: .milliseconds(10_999))
        await harness.expectEvents([])
        harness.advance(to: .seconds(11))
        await harness.expectEvents([.removed(Self.discovered(Self.device))])
        #expect(harness.querier.links.values.allSatisfy { $0.cache.count == 0 && $0.copies.isEmpty })
    }

    @Test("cache flush: a new TXT, then a new SRV port, each replaces the old and updates the device")
    func cacheFlush() async throws {
        let harness = try await Self.resolved()
        let link = MDNSLink.ID(interface: 2, ipv6: false)
        var casting = Self.device
        casting.status = "1"
        casting.running = "YouTube"
        try harness.deliver(
            SimulatedCastDevice.response([casting.txtRecord()]), from: Self.fromDevice, on: 2, at: .seconds(5))
        await harness.expectEvents([.allForNow(browseType: Self.type), .updated(Self.discovered(casting))])
        harness.advance(to: .seconds(6))
        await harness.expectEvents([])
        #expect(
            harness.querier.links[link]?.cache.records(casting.instance, .txt, at: harness.now) == [casting.txtRecord()]
        )

        var moved = casting
        moved.port = 42_067
        try harness.deliver(SimulatedCastDevice.response([moved.srv()]), from: Self.fromDevice, on: 2, at: .seconds(8))
        await harness.expectEvents([.updated(Self.discovered(moved))])
        harness.advance(to: .seconds(9))
        await harness.expectEvents([])
        #expect(harness.querier.links[link]?.cache.records(moved.instance, .srv, at: harness.now) == [moved.srv()])
    }

    // MARK: - TTLs

    /// The queries that refresh the device's records (not the browse's PTR queries).
    static func refreshes(_ queries: [Harness.Query]) -> [Harness.Query] {
        queries.filter { $0.message.questions.contains { $0.type == .srv } }
    }

    static var refreshed: Set<String> {
        let device = Self.device
        return [
            "\(SimulatedCastDevice.serviceName) PTR", "\(device.instance) SRV", "\(device.instance) TXT",
            "\(device.host) A",
        ]
    }

    @Test("TTL refresh: asked again at 80% of the TTL; the answer keeps the device past the old expiry")
    func refresh() async throws {
        let harness = try await Self.resolved()
        harness.advance(to: .seconds(95))
        #expect(Self.refreshes(harness.queries()).isEmpty)
        // 80% of 120 s plus up to 2% of jitter (96 to 98.4 s) after the records came.
        harness.advance(to: .milliseconds(98_500))
        let asked = harness.queries()
        #expect(asked.count == 1)
        let refresh = try #require(asked.first)
        #expect(
            !refresh.legacy && refresh.message.id == 0 && refresh.message.answers.isEmpty
                && refresh.asked == Self.refreshed)
        try harness.deliver(Self.device.answer(), from: Self.fromDevice, on: 2, at: .seconds(99))
        harness.advance(to: .seconds(130))
        await harness.expectEvents([.allForNow(browseType: Self.type)])
        #expect(Self.refreshes(harness.queries()).isEmpty, "the refreshed records are not due again yet")
    }

    @Test("TTL expiry: asked at 80, 85, 90 and 95%; unanswered, the device is removed at 100%")
    func expiry() async throws {
        let harness = try await Self.resolved()
        harness.advance(to: .seconds(119))
        let refreshes = Self.refreshes(harness.queries())
        #expect(refreshes.count == 4)
        #expect(refreshes.allSatisfy { $0.asked == Self.refreshed })
        harness.advance(to: .milliseconds(120_004))
        await harness.expectEvents([.allForNow(browseType: Self.type)])
        harness.advance(to: .milliseconds(120_005))
        await harness.expectEvents([.removed(Self.discovered(Self.device))])
    }

    /// Whether `queries` are one repeat of the burst: ``MDNSQuerier/repeatCopies`` legacy queries
    /// for the PTR, each with an id of its own, listing `answers` as known.
    static func isRepeat(_ queries: [MDNSQuerierHarness.Query], answers: [DNSResourceRecord]) -> Bool {
        queries.count == MDNSQuerier.repeatCopies && Set(queries.map(\.message.id)).count == queries.count
            && queries.allSatisfy {
                $0.legacy && $0.message.id != 0 && $0.message.questions == [ptrQuestion]
                    && Set($0.message.answers) == Set(answers)
                    && $0.message.answers.count == answers.count
            }
    }

    // MARK: - The one-shot burst

    @Test("a lost answer: the repeat query is sent at 75 ms and its answer resolves the device")
    func lostAnswer() async throws {
        let harness = try Harness(interfaces: [Self.eth0])
        harness.start()
        _ = await harness.events()
        #expect(harness.queries().count == 2)  // their answers are lost
        harness.advance(to: .milliseconds(74))
        #expect(harness.queries().isEmpty)
        harness.advance(to: .milliseconds(75))
        let repeats = harness.queries()
        #expect(Self.isRepeat(repeats, answers: []))
        let again = try #require(repeats.last)
        await harness.expectEvents([])
        try harness.deliver(
            Self.device.answer(id: again.message.id), from: Self.fromDevice, on: 2, legacy: true, at: .milliseconds(80))
        await harness.expectEvents([
            .copyAdded(Self.copy(Self.device), browseType: Self.type), .found(Self.discovered(Self.device)),
        ])
        // The repeat brought news: one more a window after it, listing what is held; that one
        // brings nothing.
        harness.advance(to: .milliseconds(149))
        #expect(harness.queries().isEmpty)
        harness.advance(to: .milliseconds(150))
        #expect(Self.isRepeat(harness.queries(), answers: [Self.device.ptr()]))
        harness.advance(to: .milliseconds(224))
        await harness.expectEvents([])
        harness.advance(to: .milliseconds(225))
        await harness.expectEvents([.allForNow(browseType: Self.type)])
    }

    @Test("the burst: all for now one window after a repeat that brought nothing new, not before")
    func burstEnds() async throws {
        let harness = try await Self.resolved()
        harness.advance(to: .milliseconds(75))
        let repeated = try #require(harness.queries().first)
        // The device answers the repeat too: nothing new.
        try harness.deliver(
            Self.device.answer(id: repeated.message.id), from: Self.fromDevice, on: 2, legacy: true,
            at: .milliseconds(80))
        harness.advance(to: .milliseconds(149))
        await harness.expectEvents([])
        harness.advance(to: .milliseconds(150))
        await harness.expectEvents([.allForNow(browseType: Self.type)])
        #expect(harness.queries().isEmpty, "no third query")
    }

    @Test("the burst: a repeat that brings a new device is followed by one more query")
    func burstGoesOn() async throws {
        let harness = try await Self.resolved()
        harness.advance(to: .milliseconds(75))
        let repeated = try #require(harness.queries().first)
        let other = SimulatedCastDevice(
            uuid: "fedcba9876543210fedcba9876543210", friendlyName: "Kitchen", ipv4: IPv4Address(192, 168, 1, 21))
        try harness.deliver(
            other.answer(id: repeated.message.id), from: SocketAddress(bytes: [192, 168, 1, 21], port: 5353), on: 2,
            legacy: true,
            at: .milliseconds(90))
        let otherAddress = ServiceAddress("192.168.1.21", interfaceName: "eth0", interfaceIndex: 2)!
        await harness.expectEvents([
            .copyAdded(Self.copy(other), browseType: Self.type), .found(Self.discovered(other, [otherAddress])),
        ])
        harness.advance(to: .milliseconds(150))
        await harness.expectEvents([])
        #expect(Self.isRepeat(harness.queries(), answers: [Self.device.ptr(), other.ptr()]))
        harness.advance(to: .milliseconds(225))
        await harness.expectEvents([.allForNow(browseType: Self.type)])
    }

    @Test("a passive querier says all for now after a second, without spinning its loop until then")
    func passiveBurst() async throws {
        let harness = try Harness(interfaces: [Self.eth0], passive: true)
        harness.start()
        _ = await harness.events()
        #expect(harness.queries().map(\.legacy) == [false], "only the multicast query")
        harness.advance(to: .milliseconds(999))
        await harness.expectEvents([])
        harness.advance(to: .seconds(1))
        await harness.expectEvents([.allForNow(browseType: Self.type)])
        #expect(harness.ticks < 5)
    }

    // MARK: - What is not taken

    @Test("off-link sources (IPv4 outside the subnet, IPv6 global not on the link) are dropped and counted")
    func offLink() async throws {
        let harness = try Harness(interfaces: [Self.dualEth0])
        harness.start()
        _ = await harness.events()
        #expect(harness.queries().count == 4)
        var dual = Self.device
        dual.ipv6 = IPv6Address(bytes: Self.v6([0xFD, 0, 0, 1], 0x20))
        let answer = dual.answer()
        try harness.deliver(answer, from: SocketAddress(bytes: [10, 9, 9, 9], port: 5353), on: 2, at: .milliseconds(5))
        try harness.deliver(
            answer, from: SocketAddress(bytes: Self.v6([0x20, 0x01, 0x0D, 0xB8], 0x20), port: 5353), on: 2,
            at: .milliseconds(6))
        // On-link, but on an interface the querier does not use.
        try harness.deliver(answer, from: Self.fromDevice, on: 9, at: .milliseconds(7))
        harness.advance(to: .milliseconds(200))
        await harness.expectEvents([.allForNow(browseType: Self.type)])
        #expect(harness.querier.links.values.allSatisfy { $0.cache.count == 0 })
        // On each of the two links: two first queries and the repeat's copies.
        let burst = 2 * (2 + MDNSQuerier.repeatCopies)
        #expect(harness.querier.statistics == Self.counts(offLink: 2, ignored: 1, queries: burst))
        harness.advance(to: .seconds(1))
        await harness.expectEvents([])
        #expect(harness.reportedStatistics == Self.counts(offLink: 2, ignored: 1, queries: burst + 2))

        // The same answer from an on-link IPv6 source is taken (with its AAAA, on the IPv6 link).
        try harness.deliver(
            answer, from: SocketAddress(bytes: Self.v6([0xFD, 0, 0, 1], 0x20), port: 5353), on: 2,
            at: .milliseconds(1_100))
        await harness.expectEvents([.copyAdded(Self.copy(dual, .ipv6), browseType: Self.type), .resolvesPending(1)])
        harness.advance(to: .milliseconds(1_125))
        let address = ServiceAddress("fd00:1::20", interfaceName: "eth0", interfaceIndex: 2)!
        await harness.expectEvents([.found(Self.discovered(dual, [address])), .resolvesPending(0)])
    }

    @Test("a flood of distinct instances and malformed packets: the cache stays bounded, drops and garbage are counted")
    func flood() async throws {
        let harness = try Harness(interfaces: [Self.eth0])
        harness.start()
        _ = await harness.events()
        _ = harness.queries()
        let instances = 3_000
        let capacity = MDNSCache().capacity
        let cpu = Self.threadCPUTime()
        var malformed = 0
        var cut = 0
        // The records of cut packets (PTR, SRV, TXT) for instances the full cache cannot take.
        var cutDropped = 0
        let kept = capacity / 4
        for index in 0..<instances {
            let hex = String(index, radix: 16)
            let uuid = String(repeating: "0", count: 32 - hex.count) + hex
            let device = SimulatedCastDevice(
                uuid: uuid, friendlyName: "TV \(index)", ipv4: IPv4Address(value: 0x0A00_0000 | UInt32(index)))
            let bytes = try device.answer().encoded()
            let at = Duration.microseconds(1_000 + 10 * index)
            harness.deliver(bytes: bytes, from: Self.fromDevice, on: 2, legacy: false, at: at)
            if index % 3 == 0 {
                harness.deliver(
                    bytes: Self.malformed(bytes, index / 3), from: Self.fromDevice, on: 2, legacy: false, at: at)
                // A packet cut in its last record gives the records before it.
                if index / 3 % 4 == 1 {
                    cut += 1
                    if index >= kept { cutDropped += 3 }
                } else {
                    malformed += 1
                }
            }
        }
        let spent = Self.threadCPUTime() - cpu
        #expect(spent < .seconds(10), "the flood took \(spent) of CPU")
        let link = try #require(harness.querier.links[MDNSLink.ID(interface: 2, ipv6: false)])
        // Four records an instance (PTR, SRV, TXT, A): the first instances fill the cache.
        #expect(link.cache.count == capacity)
        #expect(link.copies.count == kept)
        #expect(
            harness.querier.statistics
                == Self.counts(
                    received: instances + malformed + cut, malformed: malformed, malformedRecords: cut,
                    dropped: (instances - kept) * 4 + cutDropped,
                    queries: 2))
        let events = await harness.events()
        #expect(events.filter { if case .found = $0 { true } else { false } }.count == kept)
        #expect(events.count == 2 * kept)
        // The burst goes on: the repeat lists the PTRs held over several packets, then all for now.
        harness.advance(to: .milliseconds(75))
        // A repeat longer than a packet goes once (one id), not in copies.
        let repeats = harness.queries()
        #expect(repeats.count > 1 && repeats.dropLast().allSatisfy(\.message.isTruncated))
        #expect(Set(repeats.map(\.message.id)).count == 1)
        #expect(repeats.reduce(0) { $0 + $1.message.answers.count } == kept)
        harness.advance(to: .milliseconds(150))
        await harness.expectEvents([.allForNow(browseType: Self.type)])
    }

    /// A packet that is not a well-formed DNS message, of one of four kinds, made from `valid`:
    /// all but the second give nothing.
    static func malformed(_ valid: [UInt8], _ kind: Int) -> [UInt8] {
        switch kind % 4 {
        case 0: return Array(valid.prefix(7))  // shorter than a header
        case 1: return Array(valid.dropLast(3))  // the last record cut
        case 2:  // a name pointing at itself
            return [0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0xC0, 12, 0, 12, 0, 1, 0, 0, 0, 120, 0, 2, 0xC0, 12]
        default: return [UInt8](repeating: 0, count: DNSMessage.maximumSize + 1)  // too large
        }
    }

    /// The CPU time this thread has used.
    static func threadCPUTime() -> Duration {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }

    // MARK: - Addresses of the other family

    @Test("an answer over IPv4 with only an AAAA: listed with that IPv6 address")
    func ipv4LinkOnlyAAAA() async throws {
        var device = Self.device
        device.ipv4 = nil
        device.ipv6 = IPv6Address(bytes: Self.v6([0xFE, 0x80], 0x20))
        let harness = try Harness(interfaces: [Self.eth0])
        harness.start()
        _ = await harness.events()
        let legacy = try #require(harness.queries().first)
        try harness.deliver(
            device.answer(id: legacy.message.id), from: Self.fromDevice, on: 2, legacy: true, at: .milliseconds(5))
        let address = ServiceAddress("fe80::20%eth0", interfaceName: "eth0", interfaceIndex: 2)!
        await harness.expectEvents([
            .copyAdded(Self.copy(device), browseType: Self.type), .found(Self.discovered(device, [address])),
        ])
        #expect(harness.queries().isEmpty, "nothing is missing: no follow-up")
    }

    @Test("an answer over IPv6 with only an A: listed with that IPv4 address")
    func ipv6LinkOnlyA() async throws {
        let harness = try Harness(interfaces: [Self.eth1])
        harness.start()
        _ = await harness.events()
        let legacy = try #require(harness.queries().first)
        #expect(legacy.interface == 4 && legacy.destination.isIPv6)
        try harness.deliver(
            Self.device.answer(id: legacy.message.id), from: Self.fromDeviceV6, on: 4, legacy: true,
            at: .milliseconds(5))
        let address = ServiceAddress("192.168.1.20", interfaceName: "eth1", interfaceIndex: 4)!
        await harness.expectEvents([
            .copyAdded(Self.copy(Self.device, on: 4, .ipv6), browseType: Self.type),
            .found(Self.discovered(Self.device, [address])),
        ])
    }

    @Test("no address at all: both families asked for, resolveFailed after the timeout, never listed")
    func noAddress() async throws {
        var device = Self.device
        device.ipv4 = nil
        let harness = try Harness(interfaces: [Self.eth0])
        harness.start()
        _ = await harness.events()
        let legacy = try #require(harness.queries().first)
        try harness.deliver(
            device.answer(id: legacy.message.id), from: Self.fromDevice, on: 2, legacy: true, at: .milliseconds(5))
        await harness.expectEvents([.copyAdded(Self.copy(device), browseType: Self.type), .resolvesPending(1)])
        let followUp = try #require(harness.queries().first)
        #expect(followUp.legacy && followUp.asked == ["\(device.host) A", "\(device.host) AAAA"])
        harness.advance(to: .milliseconds(2_004))
        // Three more follow-ups (200, 400, 800 ms apart) beside the burst's repeat.
        #expect(harness.queries().filter { $0.message.questions.contains { $0.name == device.host } }.count == 3)
        await harness.expectEvents([.allForNow(browseType: Self.type)])
        harness.advance(to: .milliseconds(2_005))
        let error = DiscoveryError(kind: .other, message: "no answer with A, AAAA for \(device.instance) on eth0")
        await harness.expectEvents([.resolveFailed(device.key, error), .resolvesPending(0)])
    }

    @Test("an NSEC: no address of either family fails at once; one naming the other family's address waits for it")
    func nsec() async throws {
        var none = Self.device
        none.ipv4 = nil
        var later = SimulatedCastDevice(uuid: "fedcba9876543210fedcba9876543210", friendlyName: "Kitchen")
        later.ipv6 = IPv6Address(bytes: Self.v6([0xFD, 0, 0, 1], 0x21))
        let harness = try Harness(interfaces: [Self.eth0])
        harness.start()
        _ = await harness.events()
        _ = harness.queries()
        var noneAnswer = none.answer()
        noneAnswer.additionals.append(
            DNSResourceRecord(name: none.host, cacheFlush: true, ttl: 120, data: .nsec(next: none.host, types: [])))
        try harness.deliver(noneAnswer, from: Self.fromDevice, on: 2, at: .milliseconds(5))
        let error = DiscoveryError(kind: .other, message: "no answer with A, AAAA for \(none.instance) on eth0")
        await harness.expectEvents([
            .copyAdded(Self.copy(none), browseType: Self.type), .resolveFailed(none.key, error),
        ])

        var laterAnswer = later.answer()
        laterAnswer.additionals = [
            later.srv(), later.txtRecord(),
            DNSResourceRecord(
                name: later.host, cacheFlush: true, ttl: 120, data: .nsec(next: later.host, types: [.aaaa])),
        ]
        try harness.deliver(laterAnswer, from: Self.fromDevice, on: 2, at: .milliseconds(10))
        await harness.expectEvents([.copyAdded(Self.copy(later), browseType: Self.type), .resolvesPending(1)])
        try harness.deliver(
            SimulatedCastDevice.response(later.addresses()), from: Self.fromDevice, on: 2, at: .milliseconds(30))
        let address = ServiceAddress("fd00:1::21", interfaceName: "eth0", interfaceIndex: 2)!
        await harness.expectEvents([.found(Self.discovered(later, [address])), .resolvesPending(0)])
    }
}
