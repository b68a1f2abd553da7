import CastDiscovery

#if canImport(Glibc)
import Glibc
#endif

/// The querier behind ``KnownHostsBackend``: one thread asks each host in rounds and turns its
/// answers into the same events as the multicast backends.
///
/// A round sends the PTR questions, repeats them ``answerWait`` later while nothing came (at
/// most ``queryTries`` times), asks what the answer lacks (at most ``followUpLimit`` times),
/// then reports what changed against what it reported of the host before: each host is its own
/// pseudo-interface (``interfaceIndex(ofHost:)``) with one copy per instance. Its ``PollLoop``
/// owns the state; ``stop()`` only wakes the loop to end it.
final class KnownHostsQuerier: PollLoopOwner, @unchecked Sendable {
    /// How long a query waits for its answer before it is sent again.
    static let answerWait: Duration = .milliseconds(400)
    /// How many times a round's query is sent before the host counts as not answering.
    static let queryTries = 3
    /// How many follow-up questions a round sends for what the answers lacked.
    static let followUpLimit = 2
    /// How many unanswered rounds in a row remove a host's devices.
    static let unansweredLimit = 2
    /// The most records kept from one host's round, and the most instances taken from it.
    static let maximumRecords = 1024
    static let maximumInstances = 256

    private struct HostState {
        let host: KnownHost
        var queryID: UInt16 = 0
        var tries = 0
        var followUps = 0
        var answered = false
        var active = false
        var deadline: ContinuousClock.Instant
        var records: [DNSResourceRecord] = []
        var unanswered = 0
        var roundsDone = 0
    }

    /// What a host's answered round says: the copy each complete instance (SRV and TXT) makes,
    /// with the browses that list it and its resolution, and the instances still listed whose
    /// SRV or TXT did not come, which keep what they had.
    private struct HostView {
        var copies: [ServiceCopyKey: (browses: Set<String>, resolution: ServiceResolution)] = [:]
        var kept: Set<ServiceKey> = []
    }

    private let browses: [(type: String, name: DNSName)]
    private let serviceName: DNSName
    private let interval: Duration
    private let buffer: BackendEventBuffer
    private var hosts: [HostState]
    private var sockets: [Bool: MDNSSocket] = [:]
    /// What was reported of each copy, each host on its own pseudo-interface: its browses and
    /// its resolution.
    private var reported: [ServiceCopyKey: (browses: Set<String>, resolution: ServiceResolution?)] = [:]
    private var statistics = BackendStatistics()
    private var reportedStatistics = BackendStatistics()
    private var nextStatistics = ContinuousClock.now
    private var saidAllForNow = false
    private let loop: PollLoop

    init(
        hosts: [KnownHost], request: BrowseRequest, interval: Duration, buffer: BackendEventBuffer
    ) throws(DiscoveryError) {
        let names = try MDNSBrowseNames(request)
        browses = names.browses
        serviceName = names.serviceName
        self.interval = min(max(interval, .seconds(1)), .seconds(86_400))
        self.buffer = buffer
        let now = ContinuousClock.now
        self.hosts = hosts.map { HostState(host: $0, deadline: now) }
        loop = try PollLoop()
        var failures: [String] = []
        for ipv6 in [false, true] where hosts.contains(where: { $0.addresses.contains { $0.isIPv6 == ipv6 } }) {
            do throws(MDNSSocketError) {
                sockets[ipv6] = try MDNSSocket(ipv6: ipv6, port: 0)
            } catch {
                failures.append("\(ipv6 ? "IPv6" : "IPv4"): \(error)")
            }
        }
        // A family without a socket (IPv6 disabled): its addresses are not asked; a host with
        // none left cannot be asked at all.
        for host in self.hosts where !host.host.addresses.contains(where: { sockets[$0.isIPv6] != nil }) {
            throw DiscoveryError(
                kind: .other,
                message:
                    "cannot ask host \(SafeText.quoted(host.host.text)): no UDP socket (\(failures.joined(separator: "; ")))",
                fix: "check that this process may open UDP sockets (a container may forbid it)")
        }
    }

    /// Asks the loop to end. From any thread.
    func stop() {
        loop.stop()
    }

    /// The loop: a round for every host at once, then each host's rounds on its own timer,
    /// until stopped or until the loop fails, which is reported as the backend's failure.
    func run() {
        loop.assertOnLoop()
        buffer.yield(.stateChanged(.running))
        for browse in browses { buffer.yield(.browseStarted(browseType: browse.type)) }
        for (ipv6, socket) in sockets.sorted(by: { !$0.key && $1.key }) {
            loop.register(socket.descriptor, name: "the \(ipv6 ? "IPv6" : "IPv4") query socket") { [unowned self] _ in
                socket.drain { take($0, at: .now) }
            }
        }
        let now = ContinuousClock.now
        for index in hosts.indices { startRound(index, at: now) }
        let failure = loop.run(self)
        sockets = [:]
        if let failure {
            buffer.yield(
                .stateChanged(
                    .failed(DiscoveryError(kind: .other, message: "the known-hosts querier stopped: \(failure)"))))
        }
        buffer.finish()
    }

    func nextDeadline() -> ContinuousClock.Instant? {
        hosts.map(\.deadline).min()
    }

    func tick(at now: ContinuousClock.Instant) {
        for index in hosts.indices where hosts[index].deadline <= now { timer(index, at: now) }
    }

    // MARK: - Rounds

    private func startRound(_ index: Int, at now: ContinuousClock.Instant) {
        hosts[index].active = true
        hosts[index].answered = false
        hosts[index].tries = 0
        hosts[index].followUps = 0
        hosts[index].records = []
        hosts[index].queryID = UInt16.random(in: 1...UInt16.max)
        sendQuery(index, browses.map { DNSQuestion(name: $0.name, type: .ptr) }, at: now)
    }

    private func sendQuery(_ index: Int, _ questions: [DNSQuestion], at now: ContinuousClock.Instant) {
        let state = hosts[index]
        for packet in MDNSQueryPackets.packets(questions: questions, knownAnswers: [], id: state.queryID) {
            for address in state.host.addresses {
                guard let socket = sockets[address.isIPv6] else { continue }
                do throws(MDNSSocketError) {
                    try socket.send(packet, to: address, interface: Int32(bitPattern: address.scope))
                    statistics.queriesSent += 1
                } catch {
                    // Unreachable now (no route): the round goes unanswered and says so.
                }
            }
        }
        if state.answered { hosts[index].followUps += 1 } else { hosts[index].tries += 1 }
        hosts[index].deadline = now + Self.answerWait
    }

    private func timer(_ index: Int, at now: ContinuousClock.Instant) {
        let state = hosts[index]
        guard state.active else { return startRound(index, at: now) }
        if !state.answered, state.tries < Self.queryTries {
            return sendQuery(index, browses.map { DNSQuestion(name: $0.name, type: .ptr) }, at: now)
        }
        finishRound(index, at: now)
    }

    /// Takes one datagram: only a response from an address asked, from the port asked (5353),
    /// echoing the round's query id.
    private func take(_ datagram: MDNSSocket.Datagram, at now: ContinuousClock.Instant) {
        loop.assertOnLoop()
        guard hosts.contains(where: { $0.active && $0.host.isAddress(datagram.source) }) else {
            statistics.ignoredPackets += 1
            return
        }
        guard let message = statistics.read(datagram.bytes) else { return }
        // The host is the one asked at that address whose round this answer's id belongs to.
        guard message.isResponse, message.opcode == 0, message.responseCode == 0,
            let index = hosts.firstIndex(where: {
                $0.active && $0.host.isAddress(datagram.source) && $0.queryID == message.id
            })
        else {
            statistics.ignoredPackets += 1
            return
        }
        statistics.packetsReceived += 1
        hosts[index].answered = true
        var news = false
        for record in message.records where record.recordClass == DNSQuestion.internetClass {
            guard !hosts[index].records.contains(record) else { continue }
            guard hosts[index].records.count < Self.maximumRecords else {
                statistics.droppedRecords += 1
                continue
            }
            hosts[index].records.append(record)
            news = true
        }
        // A repeat (the answer to a retried query) brings nothing: it spends no follow-up.
        guard news else { return }
        let missing = missingQuestions(hosts[index].records)
        if missing.isEmpty || hosts[index].followUps >= Self.followUpLimit {
            finishRound(index, at: now)
        } else {
            sendQuery(index, missing, at: now)
        }
    }

    private func finishRound(_ index: Int, at now: ContinuousClock.Instant) {
        hosts[index].active = false
        hosts[index].roundsDone += 1
        hosts[index].deadline = now + interval
        var events: [BackendEvent] = []
        if hosts[index].answered {
            hosts[index].unanswered = 0
            events = apply(view(of: hosts[index], hostNumber: index), toInterface: Self.interfaceIndex(ofHost: index))
        } else {
            hosts[index].unanswered += 1
            if hosts[index].unanswered >= Self.unansweredLimit || !saidAllForNow {
                events = apply(HostView(), toInterface: Self.interfaceIndex(ofHost: index))
            }
        }
        events.forEach { buffer.yield($0) }
        let unanswered = hosts.filter { $0.roundsDone > 0 && $0.unanswered > 0 }.map(\.host.text)
        let hostsChanged = unanswered != statistics.unansweredHosts
        statistics.unansweredHosts = unanswered
        let firstRoundsDone = !saidAllForNow && hosts.allSatisfy { $0.roundsDone > 0 }
        // The counts at most once a second, but at once when the silent hosts change and
        // before all-for-now (a scan that ends then reports them).
        if statistics != reportedStatistics, hostsChanged || firstRoundsDone || now >= nextStatistics {
            reportedStatistics = statistics
            nextStatistics = now + .seconds(1)
            buffer.yield(.statistics(statistics))
        }
        if firstRoundsDone {
            saidAllForNow = true
            for browse in browses {
                // Everything the hosts had is in: the cache, as a daemon would say, and all for now.
                buffer.yield(.cacheExhausted(browseType: browse.type))
                buffer.yield(.allForNow(browseType: browse.type))
            }
        }
    }

    // MARK: - What a host has

    /// The questions for what the records lack: each instance's SRV and TXT, each SRV
    /// target's addresses.
    private func missingQuestions(_ records: [DNSResourceRecord]) -> [DNSQuestion] {
        var questions: [DNSQuestion] = []
        for instance in instances(in: records) {
            let srv = records.first { $0.name == instance && $0.type == .srv }
            if srv == nil { questions.append(DNSQuestion(name: instance, type: .srv)) }
            if !records.contains(where: { $0.name == instance && $0.type == .txt }) {
                questions.append(DNSQuestion(name: instance, type: .txt))
            }
            if case .srv(_, _, _, let target)? = srv?.data,
                !records.contains(where: { $0.name == target && ($0.type == .a || $0.type == .aaaa) }),
                !questions.contains(where: { $0.name == target })
            {
                questions.append(DNSQuestion(name: target, type: .a))
                questions.append(DNSQuestion(name: target, type: .aaaa))
            }
        }
        return questions
    }

    /// The instances the browses' PTR records name (goodbyes, TTL 0, left out), in a fixed order.
    private func instances(in records: [DNSResourceRecord]) -> [DNSName] {
        var found: [DNSName] = []
        for record in records where record.ttl > 0 {
            guard case .ptr(let instance) = record.data, browses.contains(where: { $0.name == record.name }),
                instance.parent == serviceName, !found.contains(instance), found.count < Self.maximumInstances
            else { continue }
            found.append(instance)
        }
        return found
    }

    /// The pseudo-interface of the host at `index` (-1, -2, ...: no real interface), so one host
    /// going silent does not take away what another still reports.
    private static func interfaceIndex(ofHost index: Int) -> Int32 {
        -Int32(index + 1)
    }

    /// The copies a host's records make: per complete instance (SRV and TXT), one on the host's
    /// pseudo-interface, resolved to the host's first A and first AAAA that is not link-local
    /// (the asked address when the answer has neither).
    private func view(of state: HostState, hostNumber: Int) -> HostView {
        var view = HostView()
        let records = state.records
        for instance in instances(in: records) {
            guard let service = ServiceKey(dnsName: instance) else { continue }
            guard
                case .srv(_, _, let port, let target)? = records.first(where: { $0.name == instance && $0.type == .srv }
                )?.data,
                case .txt(let txt)? = records.first(where: { $0.name == instance && $0.type == .txt })?.data
            else {
                // Still listed, but this round's follow-ups went unanswered: keep what it had.
                view.kept.insert(service)
                continue
            }
            let reporting = Set(
                browses.filter { browse in
                    records.contains { $0.name == browse.name && $0.data == .ptr(instance) }
                }.map(\.type))
            var addresses: [ServiceAddress] = []
            for record in records where record.name == target {
                switch record.data {
                case .a(let address): addresses.append(ServiceAddress(.v4(address)))
                case .aaaa(let address) where !address.isLinkLocal: addresses.append(ServiceAddress(.v6(address)))
                default: break
                }
            }
            // No usable address in the answer: the address asked (a link-local one keeps its zone).
            if addresses.isEmpty, let asked = state.host.addresses.first?.serviceAddress {
                addresses.append(asked)
            }
            let key = ServiceCopyKey(
                service: service, interfaceIndex: Self.interfaceIndex(ofHost: hostNumber), transport: nil)
            let resolution = ServiceResolution(
                hostName: MDNSQuerier.hostText(target), port: port,
                addresses: [ServiceAddress.Family.ipv4, .ipv6].compactMap { family in
                    addresses.first { $0.family == family }
                },
                txt: txt, knownHost: state.host.text)
            view.copies[key] = (reporting, resolution)
        }
        return view
    }

    /// Reports what changed of the copies on a host's pseudo-interface to bring them to `view`:
    /// first the browses that no longer list a copy (every browse for a copy not in the view),
    /// then the browses that newly list one, then the resolutions that changed. The copies of
    /// ``HostView/kept`` instances are left as they are.
    private func apply(_ view: HostView, toInterface interfaceIndex: Int32) -> [BackendEvent] {
        var events: [BackendEvent] = []
        let here = reported.keys.filter { $0.interfaceIndex == interfaceIndex && !view.kept.contains($0.service) }
        for copy in here.sorted(by: { $0.service < $1.service }) {
            guard let was = reported[copy] else { continue }
            let staying = was.browses.intersection(view.copies[copy]?.browses ?? [])
            events += was.browses.subtracting(staying).sorted().map { .copyRemoved(copy, browseType: $0) }
            reported[copy] = staying.isEmpty ? nil : (staying, was.resolution)
        }
        let copies = view.copies.sorted { $0.key.service < $1.key.service }
        for (copy, seen) in copies {
            let was = reported[copy]?.browses ?? []
            events += seen.browses.subtracting(was).sorted().map { .copyAdded(copy, browseType: $0) }
            reported[copy] = (seen.browses, reported[copy]?.resolution)
        }
        for (copy, seen) in copies where reported[copy]?.resolution != seen.resolution {
            reported[copy]?.resolution = seen.resolution
            events.append(.copyResolved(copy, seen.resolution, stillAsking: false))
        }
        return events
    }
}
