import CastDiscovery

extension MDNSQuerier {
    /// The first questions on a link: the browses' PTRs as a legacy-unicast query from an
    /// ephemeral port (responders answer it at once, by unicast, RFC 6762 section 6.7), and as a
    /// multicast query from port 5353 (answered by multicast, with full TTLs, for every cache on
    /// the link). A passive querier sends only the multicast one.
    func askInitially(on id: MDNSLink.ID, at now: ContinuousClock.Instant) {
        let questions = browses.map { DNSQuestion(name: $0.name, type: .ptr) }
        if !configuration.passive { ask(questions, on: id, legacy: true, knownAnswers: [], at: now) }
        ask(questions, on: id, legacy: false, knownAnswers: [], at: now)
    }

    /// The one-shot burst: a browse asks again one response window after its last query while
    /// answers keep bringing news, and says all-for-now when a repeat brought nothing new
    /// within its window (or after ``burstQueries`` queries). A passive querier waits a second
    /// for the multicast answers instead.
    func runBursts(at now: ContinuousClock.Instant) {
        var repeats: [DNSQuestion] = []
        for browse in browses {
            guard var burst = bursts[browse.type], !burst.done else { continue }
            defer { bursts[browse.type] = burst }
            guard now - burst.lastQuery >= burstWindow else { continue }
            if configuration.passive {
                burst.done = true
                emit([.allForNow(browseType: browse.type)], at: now)
                continue
            }
            let quiet = burst.lastNews.map { $0 < burst.lastQuery } ?? true
            if (burst.queries >= 2 && quiet) || burst.queries >= Self.burstQueries {
                burst.done = true
                emit([.allForNow(browseType: browse.type)], at: now)
            } else {
                burst.queries += 1
                burst.lastQuery = now
                repeats.append(DNSQuestion(name: browse.name, type: .ptr))
            }
        }
        guard !repeats.isEmpty else { return }
        for id in links.keys.sorted() {
            // The answers already held go along, so only what is missing is answered again.
            let known = repeats.flatMap { links[id]?.cache.knownAnswers($0.name, .ptr, at: now) ?? [] }
            ask(repeats, on: id, legacy: true, knownAnswers: known, at: now)
        }
    }

    /// How long the burst waits after a query: a response window, or a second for the
    /// multicast answers to a passive querier.
    var burstWindow: Duration {
        configuration.passive ? .seconds(1) : Self.responseWindow
    }

    /// Continuous querying (RFC 6762 section 5.2): the browses' PTRs by multicast from port
    /// 5353, with the answers held as known answers, at intervals that double up to an hour.
    func askContinuously(at now: ContinuousClock.Instant) {
        continuousInterval = min(continuousInterval * 2, .seconds(3600))
        nextContinuous = now + continuousInterval
        let questions = browses.map { DNSQuestion(name: $0.name, type: .ptr) }
        for id in links.keys.sorted() {
            let known = questions.flatMap { links[id]?.cache.knownAnswers($0.name, .ptr, at: now) ?? [] }
            ask(questions, on: id, legacy: false, knownAnswers: known, at: now)
        }
    }

    /// Asks again for record sets whose records are near the end of their TTL, without listing
    /// them as known answers, so their owners answer (and passive observation can tell when
    /// they do not).
    func refresh(_ sets: [MDNSCache.SetKey], on id: MDNSLink.ID, at now: ContinuousClock.Instant) {
        ask(sets.map { DNSQuestion(name: $0.name, type: $0.type) }, on: id, legacy: false, knownAnswers: [], at: now)
    }

    /// Sends `questions` on a link, as a legacy-unicast query or from port 5353, to the link's
    /// mDNS group (the only place the querier sends anything).
    func ask(_ questions: [DNSQuestion], on id: MDNSLink.ID, legacy: Bool, knownAnswers: [DNSResourceRecord], at now: ContinuousClock.Instant) {
        guard !questions.isEmpty else { return }
        // Without a listener on 5353 every question goes from the query socket.
        guard let socket = (legacy ? legacySockets[id.ipv6] : listeners[id.ipv6]) ?? legacySockets[id.ipv6] else { return }
        let group = SocketAddress.group(ipv6: id.ipv6, interface: id.interface)
        // A legacy query carries a random id (RFC 6762 section 6.7). It also keeps it from being
        // byte for byte the same as the multicast query sent beside it, which some stacks drop
        // as a duplicate packet (python-zeroconf does).
        let queryID = socket.port == 5353 ? 0 : UInt16.random(in: 1...UInt16.max)
        for start in stride(from: 0, to: questions.count, by: 32) {
            let chunk = Array(questions[start..<min(questions.count, start + 32)])
            let known = start == 0 ? knownAnswers : []
            for packet in MDNSQueryPackets.packets(questions: chunk, knownAnswers: known, id: queryID) {
                do throws(MDNSSocketError) {
                    try socket.send(packet, to: group, interface: id.interface)
                    statistics.queriesSent += 1
                } catch {
                    // The interface may have just gone; the next interface scan closes it.
                }
            }
        }
    }
}
