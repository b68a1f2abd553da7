import CastDiscovery

extension MDNSQuerier {
    /// Takes one datagram: drops what is off-link, malformed or not for us, caches the records
    /// of a response, and notes the questions of a query (for passive observation of failure
    /// and duplicate question suppression).
    func handle(_ datagram: MDNSSocket.Datagram, legacy: Bool, at now: ContinuousClock.Instant) {
        let id = MDNSLink.ID(interface: datagram.interface, ipv6: datagram.source.isIPv6)
        // Only the interface is kept: a copy of the link held across `take` would make its
        // tables copy on every change there.
        guard let interface = links[id]?.interface else {
            statistics.ignoredPackets += 1
            return
        }
        guard interface.isOnLink(datagram.source.bytes) else {
            statistics.offLinkPackets += 1
            return
        }
        statistics.packetsReceived += 1
        guard let message = statistics.read(datagram.bytes) else { return }
        guard message.opcode == 0, message.responseCode == 0 else {
            statistics.ignoredPackets += 1
            return
        }
        if message.isResponse {
            // Responses come from port 5353 (RFC 6762 section 6), also to a legacy query.
            guard datagram.source.port == 5353 else {
                statistics.ignoredPackets += 1
                return
            }
            take(message, on: id, at: now)
        } else if !legacy, datagram.source.port == 5353 {
            note(message, datagram, on: id, at: now)
        }
    }

    /// Caches what a response says about the browses, their instances and those instances'
    /// hosts, then brings the link's copies up to date.
    private func take(_ message: DNSMessage, on id: MDNSLink.ID, at now: ContinuousClock.Instant) {
        guard var link = links.removeValue(forKey: id) else { return }
        let records = message.records
        // Host names this response or the cache makes interesting: SRV targets.
        var hosts: Set<DNSName> = []
        for record in records {
            if case .srv(_, _, _, let target) = record.data, isInstance(record.name) { hosts.insert(target) }
        }
        var changed: [DNSResourceRecord] = []
        for record in records where record.recordClass == DNSQuestion.internetClass {
            let wanted: Bool
            switch record.type {
            case .ptr: wanted = browses.contains { $0.name == record.name }
            case .srv, .txt: wanted = isInstance(record.name)
            case .a, .aaaa, .nsec: wanted = hosts.contains(record.name) || isKnownHost(record.name, in: link)
            default: wanted = false
            }
            guard wanted else { continue }
            switch link.cache.insert(record, at: now) {
            case .added, .goodbye: changed.append(record)
            case .refreshed: if record.type != .ptr { changed.append(record) }
            case .dropped: statistics.droppedRecords += 1
            case .ignored: break
            }
        }
        // Instances whose SRV this response carries are touched through it; an address for a
        // host no instance was known on yet is found through those SRVs too.
        let touched = changed.isEmpty ? [] : instances(touchedBy: changed, on: link)
        // Handed back, not copied: `reconcile` changes the link in place.
        links[id] = consume link
        guard !touched.isEmpty else { return }
        reconcile(id, touched, at: now)
    }

    /// Notes the questions of a multicast query from port 5353 and the known answers it lists,
    /// once the query is whole (its known answers may go on in packets with TC): each question
    /// for passive observation of failure (the querier's own echo too), and, unless it is the
    /// querier's own echo, as another querier's asking, which may stand in for the querier's
    /// next query (``MDNSQuestionHistory``).
    private func note(
        _ message: DNSMessage, _ datagram: MDNSSocket.Datagram, on id: MDNSLink.ID, at now: ContinuousClock.Instant
    ) {
        guard var link = links.removeValue(forKey: id) else { return }
        // The echo comes from one of the link's own addresses (as would any other stack's on
        // this host); a packet from another host is never taken for it. Each packet of the
        // querier's own query is its echo once, the packets with known answers only too.
        let own = (id.ipv6 ? link.interface.ipv6 : link.interface.ipv4).contains { $0.address == datagram.source.bytes }
        let echo = own && link.questions.isEcho(datagram.bytes, at: now)
        if let query = link.queries.add(message, from: datagram.source, isEcho: echo, at: now) {
            for question in query.questions where !question.unicastResponse {
                link.cache.noteQuery(
                    question.name, question.type, listing: query.knownAnswers(question.name, question.type).map(\.data),
                    at: now)
            }
            if !query.isEcho {
                let copies = link.copies
                let hosts = link.hostInstances
                link.questions.heard(query, at: now) { question in
                    isSuppressible(question, copies: copies, hosts: hosts)
                }
            }
        }
        links[id] = link
    }

    /// Whether a question is one the querier's own schedule asks on a link, so another
    /// querier's asking of it is worth keeping: a browse's PTR (the continuous query and its
    /// refresh), the SRV and TXT of an instance the link reports, the addresses of their hosts
    /// (refreshes). Nothing else is kept, so what is kept grows with the link's copies, not with
    /// what other hosts ask.
    private func isSuppressible(
        _ question: MDNSQuestionHistory.Question, copies: [DNSName: MDNSLink.Copy], hosts: [DNSName: Set<DNSName>]
    ) -> Bool {
        switch question.type {
        case .ptr: browses.contains { $0.name == question.name }
        case .srv, .txt: copies[question.name] != nil
        case .a, .aaaa: hosts[question.name] != nil
        default: false
        }
    }

    /// Whether `name` is an instance of the service type (`X._googlecast._tcp.local.`).
    func isInstance(_ name: DNSName) -> Bool {
        name.parent == serviceName
    }

    /// Whether `name` is the SRV target of an instance the link reports.
    func isKnownHost(_ name: DNSName, in link: MDNSLink) -> Bool {
        link.hostInstances[name] != nil
    }

    /// Whether the cache should keep a record set fresh: the browses' PTRs, and the SRV, TXT
    /// and addresses of instances it reports.
    func isInteresting(_ key: MDNSCache.SetKey) -> Bool {
        switch key.type {
        case .ptr: browses.contains { $0.name == key.name }
        case .srv, .txt: isInstance(key.name)
        case .a, .aaaa: true
        default: false
        }
    }
}
