import CastDiscovery

#if canImport(Glibc)
import Glibc
#endif

/// The mDNS querier behind ``MDNSBackend``: its sockets, its links (interface × family), their
/// caches and the instance copies they report, the query schedule, and the events it yields.
///
/// One thread owns all of it: the ``PollLoop`` that polls the sockets and runs the timers
/// (``run()``). Nothing else touches the state; ``stop()`` only wakes the loop to end it.
/// The querier answers no query: it sends questions to the mDNS groups only, and takes
/// answers only from the link they arrived on.
final class MDNSQuerier: PollLoopOwner, @unchecked Sendable {
    /// What to browse and where.
    struct Configuration: Sendable {
        /// What to browse, parsed, and whether passively.
        var request: BrowseRequest
        var interfaceName: String?
        var families: Set<ServiceAddress.Family>
        /// How long the merge holds a first report for the other copies (``MDNSBackend/firstReportGrace``):
        /// the querier says how far it has read just after it.
        var firstReportGrace: Duration = MDNSQuerier.firstReportGrace
        var passive: Bool { request.passive }
    }

    /// How long after a one-shot query answers are waited for before a repeat (legacy-unicast
    /// answers come at once: within 7 ms from 500 devices in the lab).
    static let responseWindow: Duration = .milliseconds(75)
    /// The most queries of the one-shot burst.
    static let burstQueries = 5
    /// How many copies of each repeat of the burst go out, back to back, when the repeat fits
    /// in one packet. The burst ends after one repeat that brings nothing, so a device whose
    /// answers to the first query were lost is missed when its answer to that repeat is lost
    /// too: with 20% of packets lost, one scan in 150 of the lab's two devices missed one with
    /// a single copy. Each copy is an independent chance, and costs little: the repeat lists
    /// what is held, so only devices not yet heard answer it. A repeat longer than a packet
    /// (some 20 devices held) goes once.
    static let repeatCopies = 3
    /// How long a copy may lack its SRV, TXT or address before its resolve is reported failed.
    static let resolveTimeout: Duration = .seconds(2)
    /// How many follow-up questions a copy's missing records get (100, 200, 400, 800 ms apart).
    static let followUpLimit = 4
    /// How often the interfaces are listed again.
    static let interfaceScanInterval: Duration = .seconds(2)
    /// How long a first report waits for a device's copies not heard of yet: its IPv4 and IPv6
    /// answers come on separate sockets, a few milliseconds apart.
    package static let firstReportGrace: Duration = .milliseconds(25)

    let configuration: Configuration
    private let buffer: BackendEventBuffer
    /// The browse names and the browse types they stand for.
    let browses: [(type: String, name: DNSName)]
    /// The base service type's name (`_googlecast._tcp.local.`): instances live under it.
    let serviceName: DNSName

    var listeners: [Bool: any MDNSTransport] = [:]
    var legacySockets: [Bool: any MDNSTransport] = [:]
    /// Lists the interfaces (the system's, from `getifaddrs`).
    private let listInterfaces: () -> [NetworkInterface]
    var links: [MDNSLink.ID: MDNSLink] = [:]
    /// The copy limit last reported (``BackendEvent/copyLimit(_:)``).
    var reportedCopyLimit = 0
    var statistics = BackendStatistics()
    var reportedStatistics = BackendStatistics()
    /// When the counts may be reported next; set by ``start(at:)``.
    var nextStatistics = ContinuousClock.now

    /// The one-shot burst of each browse type: queries sent, the last one, the last news.
    struct Burst {
        var queries = 0
        var lastQuery: ContinuousClock.Instant
        var lastNews: ContinuousClock.Instant?
        var done = false
    }
    var bursts: [String: Burst] = [:]
    var burstInstances: [String: Set<ServiceKey>] = [:]
    /// When the next continuous query is due; set by ``start(at:)``, from which the schedule counts.
    var nextContinuous = ContinuousClock.now
    var continuousInterval: Duration
    var nextInterfaceScan = ContinuousClock.now
    /// Whether this poll round queued an event.
    private var emittedThisRound = false
    /// Whether a socket held more datagrams than this round reads.
    private var leftUnread = false
    /// When the querier ticks once more, a grace after a round that queued events, so that its
    /// read-through time passes that grace even when nothing more comes.
    private var readThroughWake: ContinuousClock.Instant?

    /// The loop that owns the querier's state.
    let loop: PollLoop
    /// What each link's cache draws its refresh jitter from.
    private var jitter: JitterGenerator

    /// Opens the sockets with `openSocket` (a family and a port, 0 for an ephemeral one) and
    /// will list the interfaces with `interfaces`; by default the system's sockets and
    /// interfaces. The caches' refresh jitter is drawn from `jitter`. Throws when no socket at
    /// all can be opened.
    init(
        configuration: Configuration, buffer: BackendEventBuffer, jitter: JitterGenerator = .seededFromSystem(),
        openSocket: (_ ipv6: Bool, _ port: UInt16) throws(MDNSSocketError) -> any MDNSTransport = {
            ipv6, port throws(MDNSSocketError) in
            try MDNSSocket(ipv6: ipv6, port: port)
        },
        interfaces: @escaping () -> [NetworkInterface] = NetworkInterface.all
    ) throws(DiscoveryError) {
        self.configuration = configuration
        self.buffer = buffer
        self.jitter = jitter
        listInterfaces = interfaces
        let names = try MDNSBrowseNames(configuration.request)
        browses = names.browses
        serviceName = names.serviceName
        continuousInterval = .seconds(configuration.passive ? 60 : 1)
        loop = try PollLoop()
        var failures: [String] = []
        for ipv6 in [false, true] where configuration.families.contains(ipv6 ? .ipv6 : .ipv4) {
            do throws(MDNSSocketError) {
                listeners[ipv6] = try openSocket(ipv6, 5353)
            } catch {
                failures.append("\(ipv6 ? "IPv6" : "IPv4") port 5353: \(error)")
            }
            do throws(MDNSSocketError) {
                legacySockets[ipv6] = try openSocket(ipv6, 0)
            } catch {
                failures.append("\(ipv6 ? "IPv6" : "IPv4") query socket: \(error)")
            }
        }
        guard !legacySockets.isEmpty || !listeners.isEmpty else {
            throw DiscoveryError(
                kind: .other, message: "cannot open an mDNS socket (\(failures.joined(separator: "; ")))",
                fix: "check that this process may open UDP sockets (a container may forbid it)")
        }
    }

    /// Asks the loop to end; it lets go of its sockets and finishes the stream. From any thread.
    func stop() {
        loop.stop()
    }

    /// The loop: starts the browses, then polls the sockets and runs the timers until stopped
    /// or until the loop fails, which is reported as the backend's failure.
    func run() {
        loop.assertOnLoop()
        for (ipv6, socket) in listeners.sorted(by: { !$0.key && $1.key }) {
            register(socket, legacy: false, name: "the \(ipv6 ? "IPv6" : "IPv4") mDNS socket (port 5353)")
        }
        for (ipv6, socket) in legacySockets.sorted(by: { !$0.key && $1.key }) {
            register(socket, legacy: true, name: "the \(ipv6 ? "IPv6" : "IPv4") query socket")
        }
        start(at: .now)
        let failure = loop.run(self)
        listeners = [:]
        legacySockets = [:]
        if let failure {
            buffer.yield(
                .stateChanged(.failed(DiscoveryError(kind: .other, message: "the mDNS querier stopped: \(failure)"))))
        }
        buffer.finish()
    }

    /// What happens before the first poll: running, the browses started, their bursts begun,
    /// the interfaces listed (and asked on).
    func start(at now: ContinuousClock.Instant) {
        loop.assertOnLoop()
        // The schedule counts from the start, not from when the querier was made: a test's
        // clock starts here, and a loaded machine can let time pass in between.
        nextContinuous = now + continuousInterval
        nextStatistics = now
        emit([.stateChanged(.running)] + browses.map { .browseStarted(browseType: $0.type) }, at: now)
        for browse in browses { bursts[browse.type] = Burst(queries: 1, lastQuery: now) }
        scanInterfaces(at: now)
    }

    /// Reads what waits on `socket` whenever the loop says it is ready.
    private func register(_ socket: any MDNSTransport, legacy: Bool, name: String) {
        loop.register(socket.descriptor, name: name) { [unowned self] _ in
            if socket.drain({ handle($0, legacy: legacy, at: .now) }) { leftUnread = true }
        }
    }

    // MARK: - Events

    /// Yields `events`, which happened at `now`.
    func emit(_ events: [BackendEvent], at now: ContinuousClock.Instant = .now) {
        loop.assertOnLoop()
        for event in events {
            // News for a browse's burst: an instance it had not reported on any link (another
            // copy of a known one adds an address, not a device).
            if case .copyAdded(let copy, let type) = event,
                burstInstances[type, default: []].insert(copy.service).inserted
            {
                bursts[type]?.lastNews = now
            }
            buffer.yield(event)
        }
        if !events.isEmpty { emittedThisRound = true }
    }

    /// Sends the counts when they changed, at most once a second.
    func reportStatistics(at now: ContinuousClock.Instant) {
        guard now >= nextStatistics, statistics != reportedStatistics else { return }
        reportedStatistics = statistics
        nextStatistics = now + .seconds(1)
        buffer.yield(.statistics(statistics))
    }

    // MARK: - Interfaces

    /// Lists the interfaces; opens the links that appeared (joining the groups there and asking
    /// at once) and closes the ones that went (their copies go with them).
    func scanInterfaces(at now: ContinuousClock.Instant) {
        nextInterfaceScan = now + Self.interfaceScanInterval
        var wanted: [MDNSLink.ID: NetworkInterface] = [:]
        for interface in listInterfaces() where interface.isUsable {
            if let name = configuration.interfaceName, interface.name != name { continue }
            if configuration.families.contains(.ipv4), !interface.ipv4.isEmpty {
                wanted[MDNSLink.ID(interface: interface.index, ipv6: false)] = interface
            }
            if configuration.families.contains(.ipv6), !interface.ipv6.isEmpty {
                wanted[MDNSLink.ID(interface: interface.index, ipv6: true)] = interface
            }
        }
        for id in links.keys.sorted() where wanted[id] == nil { closeLink(id, at: now) }
        for id in wanted.keys.sorted() {
            guard let interface = wanted[id] else { continue }
            if links[id] != nil {
                links[id]?.interface = interface
                continue
            }
            if let listener = listeners[id.ipv6] { try? listener.join(interface: id.interface) }
            links[id] = MDNSLink(id: id, interface: interface, cacheJitter: 0.02 * jitter.nextFraction())
            askInitially(on: id, at: now)
        }
        // A device has at most one copy per link: with all of them in, its first report goes.
        let limit = max(1, links.count)
        if limit != reportedCopyLimit {
            reportedCopyLimit = limit
            emit([.copyLimit(limit)], at: now)
        }
    }

    private func closeLink(_ id: MDNSLink.ID, at now: ContinuousClock.Instant) {
        guard var link = links.removeValue(forKey: id) else { return }
        listeners[id.ipv6]?.leave(interface: id.interface)
        for instance in link.copies.keys.sorted(by: Self.nameOrder) {
            guard let copy = link.copies[instance] else { continue }
            emit(copy.browses.sorted().map { .copyRemoved(copy.key, browseType: $0) }, at: now)
        }
        _ = link.cache.removeAll()
    }

    // MARK: - Timers

    func nextDeadline() -> ContinuousClock.Instant? {
        var next = min(nextInterfaceScan, nextContinuous)
        if let wake = readThroughWake { next = min(next, wake) }
        if statistics != reportedStatistics { next = min(next, nextStatistics) }
        for burst in bursts.values where !burst.done { next = min(next, burst.lastQuery + burstWindow) }
        for link in links.values {
            if let deadline = link.cache.nextDeadline() { next = min(next, deadline) }
            for copy in link.copies.values {
                if let deadline = resolveDeadline(of: copy) { next = min(next, deadline) }
            }
        }
        return next
    }

    func tick(at now: ContinuousClock.Instant) {
        if now >= nextInterfaceScan { scanInterfaces(at: now) }
        for id in links.keys.sorted() {
            guard var link = links.removeValue(forKey: id) else { continue }
            let expired = link.cache.expire(at: now)
            let due = link.cache.dueRefreshes(at: now, interesting: isInteresting)
            links[id] = link
            if !due.isEmpty { refresh(due, on: id, at: now) }
            reconcile(id, instances(touchedBy: expired, on: link).union(copiesDue(on: link, at: now)), at: now)
        }
        runBursts(at: now)
        if now >= nextContinuous { askContinuously(at: now) }
        reportStatistics(at: now)
        // What had come when this round's poll returned is read and queued, unless a socket
        // held more than a round reads: the merge judges the first reports' grace by that time
        // (the stack's own, not the manager's).
        if let wake = readThroughWake, wake <= now { readThroughWake = nil }
        if emittedThisRound {
            emittedThisRound = false
            readThroughWake = now + configuration.firstReportGrace + .milliseconds(1)
        }
        if !leftUnread, let polled = loop.polledAt { buffer.noteReadThrough(polled) }
        leftUnread = false
    }
}
