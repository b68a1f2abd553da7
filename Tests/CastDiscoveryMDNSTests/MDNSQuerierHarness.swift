@testable import CastDiscovery
@testable import CastDiscoveryMDNS
import Testing

/// Drives an ``MDNSQuerier`` in-process, with no socket and no wall clock: fake interfaces, fake
/// sockets that record what is sent, datagrams handed over at chosen instants, and the timers
/// run at each deadline the querier names, as its loop would. What the querier reports is merged
/// as a ``DiscoveryManager`` merges it (``BackendMerger``), at the instant it was reported.
///
/// Instants are offsets from ``t0``, the start. Time only moves forward.
final class MDNSQuerierHarness {
    static let browseType = "_googlecast._tcp"
    /// A port for the fake legacy-unicast sockets (any but 5353).
    static let legacyPort: UInt16 = 49_152

    /// A query the querier sent, decoded.
    struct Query: Equatable {
        /// From the legacy-unicast socket (an ephemeral port), not from 5353.
        var legacy: Bool
        var destination: SocketAddress
        var interface: Int32
        var message: DNSMessage
        /// The packet as sent (to hand it back as its own echo).
        var bytes: [UInt8]

        /// The questions as (name, type) pairs, for comparing without caring about order.
        var asked: Set<String> { Set(message.questions.map { "\($0.name) \($0.type)" }) }
    }

    let querier: MDNSQuerier
    let t0: ContinuousClock.Instant
    private(set) var now: ContinuousClock.Instant
    /// The last counts the querier reported (a `statistics` event).
    private(set) var reportedStatistics: BackendStatistics?
    /// How many times the timers ran.
    private(set) var ticks = 0
    private let log: FakeMDNSSocket.Log
    private var sendsRead = 0
    private let buffer: BackendEventBuffer
    /// The merge of the querier's copies, and what it made that was not read yet.
    private var merger = BackendMerger(single: MDNSBackend().firstReportWait)
    private var merged: [BackendEvent] = []

    init(
        interfaces: [NetworkInterface], families: Set<ServiceAddress.Family> = [.ipv4, .ipv6], passive: Bool = false,
        browseTypes: [String] = [browseType], jitter: JitterGenerator = JitterGenerator(seed: 0)
    ) throws {
        let buffer = BackendEventBuffer()
        let log = FakeMDNSSocket.Log()
        querier = try MDNSQuerier(
            configuration: .init(
                request: try BrowseRequest(parsing: browseTypes, passive: passive), interfaceName: nil,
                families: families),
            buffer: buffer, jitter: jitter,
            openSocket: { _, port in FakeMDNSSocket(port: port == 0 ? Self.legacyPort : port, log: log) },
            interfaces: { interfaces })
        self.log = log
        self.buffer = buffer
        // Later than the querier's making, by more than a loaded machine lets pass in between:
        // its schedule counts from its start (``start()``), never from when it was made.
        t0 = .now + .milliseconds(50)
        now = t0
    }

    /// What the querier's loop does before it first polls: running, the browses started, their
    /// bursts begun, the interfaces listed (and asked on).
    func start() {
        querier.start(at: t0)
        drain()
    }

    /// Merges what the querier reported since, at ``now``; keeps its counts apart.
    private func drain() {
        while case .event(let event) = buffer.take(orNotify: {}) {
            if case .statistics(let counts) = event {
                reportedStatistics = counts
            } else {
                merged += merger.take(event, from: 0, at: now)
            }
        }
        // The end of the loop's turn: the pending count the reports left.
        merged += merger.flush()
    }

    /// Runs the timers at every deadline up to `offset`, as the loop would wake for them. A
    /// deadline that is still due right after its tick means the loop would spin: an issue.
    func advance(to offset: Duration, sourceLocation: SourceLocation = #_sourceLocation) {
        let target = t0 + offset
        while let deadline = [querier.nextDeadline(), merger.nextRelease].compactMap({ $0 }).min(), deadline <= target {
            let instant = max(deadline, now)
            now = instant
            if let due = querier.nextDeadline(), due <= instant {
                querier.tick(at: instant)
                ticks += 1
                drain()
                if let next = querier.nextDeadline(), next <= instant {
                    Issue.record(
                        "the loop would spin at \(instant - t0): the next deadline is \(next - t0)",
                        sourceLocation: sourceLocation)
                    break
                }
            }
            if let release = merger.nextRelease, release <= instant { merged += merger.releaseHeld(at: instant) }
        }
        now = max(now, target)
    }

    /// Hands `bytes` to the querier at `offset` (after the timers due before it), as arrived on
    /// `interface` from `source`, on the legacy-unicast socket or the 5353 listener.
    func deliver(bytes: [UInt8], from source: SocketAddress, on interface: Int32, legacy: Bool, at offset: Duration) {
        advance(to: offset)
        querier.handle(MDNSSocket.Datagram(bytes: bytes, source: source, interface: interface), legacy: legacy, at: now)
        drain()
    }

    /// Encodes `message` and hands it over as ``deliver(bytes:from:on:legacy:at:)`` does.
    func deliver(
        _ message: DNSMessage, from source: SocketAddress, on interface: Int32, legacy: Bool = false,
        at offset: Duration
    ) throws {
        deliver(bytes: try message.encoded(), from: source, on: interface, legacy: legacy, at: offset)
    }

    /// What the merge of the querier's reports made since the last call, without the
    /// querier's `statistics` events (the last of those is kept in ``reportedStatistics``).
    func events() async -> [BackendEvent] {
        drain()
        defer { merged = [] }
        return merged
    }

    /// Expects ``events()`` to be `expected`, exactly.
    func expectEvents(_ expected: [BackendEvent], sourceLocation: SourceLocation = #_sourceLocation) async {
        let events = await events()
        #expect(events == expected, sourceLocation: sourceLocation)
    }

    /// The queries sent since the last call, decoded (a send that does not decode is an issue).
    func queries(sourceLocation: SourceLocation = #_sourceLocation) -> [Query] {
        let new = log.sends[sendsRead...]
        sendsRead = log.sends.count
        return new.compactMap { send in
            do {
                return Query(
                    legacy: send.port != 5353, destination: send.destination, interface: send.interface,
                    message: try DNSMessage(decoding: send.bytes), bytes: send.bytes)
            } catch {
                Issue.record("a sent packet does not decode: \(error)", sourceLocation: sourceLocation)
                return nil
            }
        }
    }
}
