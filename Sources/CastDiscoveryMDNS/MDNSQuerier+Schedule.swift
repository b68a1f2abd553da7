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
            ask(repeats, on: id, legacy: true, knownAnswers: known, copies: Self.repeatCopies, at: now)
        }
    }

    /// How long the burst waits after a query: a response window, or a second for the
    /// multicast answers to a passive querier.
    var burstWindow: Duration {
        configuration.passive ? .seconds(1) : Self.responseWindow
    }

    /// Continuous querying (RFC 6762 section 5.2): the browses' PTRs by multicast from port
    /// 5353, with the answers held as known answers, at intervals that double up to an hour.
    ///
    /// Duplicate question suppression (section 7.3): a browse's question is not sent on a link
    /// where another querier asked it since the previous point of this schedule (the whole
    /// interval that ends now) listing no known answer the link's cache lacks; the schedule
    /// goes on as if it had been sent. The window is the interval because the schedule's
    /// promise is one question per interval, not one at its end: every answer ours would bring
    /// came to that query, by multicast, within the interval. Windows of successive queries
    /// tile the time, so another querier that asks at least as often as this schedule (as
    /// avahi-daemon does, doubling to an hour too) stands in for every query whatever the
    /// phase of its schedule; a shorter window would leave the queries it falls outside of
    /// (half of them, for the last half of the interval) sent for ever. The cost: the
    /// question may have been asked up to one interval before ours was due, so if the other
    /// querier then stops, the gap to the next question on the link grows by up to that
    /// interval (three intervals instead of two while they double, two hours instead of one at
    /// the cap). Nothing expires for it: records are kept by their refreshes, and a device
    /// announces itself when it comes; the continuous query only catches one whose
    /// announcements were all lost.
    func askContinuously(at now: ContinuousClock.Instant) {
        let previous = nextContinuous - continuousInterval
        continuousInterval = min(continuousInterval * 2, .seconds(3600))
        nextContinuous = now + continuousInterval
        for id in links.keys.sorted() {
            guard let link = links[id] else { continue }
            var questions: [DNSQuestion] = []
            var known: [DNSResourceRecord] = []
            for browse in browses {
                let held = link.cache.knownAnswers(browse.name, .ptr, at: now)
                let question = MDNSQuestionHistory.Question(name: browse.name, type: .ptr)
                if link.questions.standsIn(for: question, since: previous, holding: Set(held.map(\.data)), at: now) {
                    statistics.suppressedQueries += 1
                    continue
                }
                questions.append(DNSQuestion(name: browse.name, type: .ptr))
                known += held
            }
            ask(questions, on: id, legacy: false, knownAnswers: known, at: now)
        }
    }

    /// Asks again for record sets whose records are near the end of their TTL, without listing
    /// them as known answers, so their owners answer (and passive observation can tell when
    /// they do not).
    ///
    /// Duplicate question suppression (section 7.3): a set is not asked for where another
    /// querier asked for it within the last ``refreshStep(of:on:at:)`` (since the previous
    /// refresh point, or for the first one, 80%, since 75% of the TTL) listing no known answer
    /// the cache lacks. Its owner answers that query by multicast, which refreshes the set here
    /// as ours would; if the owner is gone, that query counts toward passive observation of
    /// failure as ours would. The set's refresh point counts as passed all the same. A longer
    /// window could reach back before the late part of the TTL, where an unanswered query
    /// means less; one step keeps each refresh point asked about within its step.
    func refresh(_ sets: [MDNSCache.SetKey], on id: MDNSLink.ID, at now: ContinuousClock.Instant) {
        guard let link = links[id] else { return }
        let asked = sets.filter { set in
            guard let step = refreshStep(of: set, on: link, at: now) else { return true }
            let held = Set(link.cache.knownAnswers(set.name, set.type, at: now).map(\.data))
            return !link.questions.standsIn(
                for: .init(name: set.name, type: set.type), since: now - step, holding: held, at: now)
        }
        statistics.suppressedQueries += sets.count - asked.count
        ask(asked.map { DNSQuestion(name: $0.name, type: $0.type) }, on: id, legacy: false, knownAnswers: [], at: now)
    }

    /// The span between two refresh points of a set: 5% of the shortest TTL among its live
    /// records (nil when it holds only goodbyes).
    func refreshStep(of set: MDNSCache.SetKey, on link: MDNSLink, at now: ContinuousClock.Instant) -> Duration? {
        let ttl = link.cache.records(set.name, set.type, at: now).map(\.ttl).filter { $0 > 0 }.min()
        return ttl.map { .seconds(Double($0) * 0.05) }
    }

    /// Sends `questions` on a link, as a legacy-unicast query or from port 5353, to the link's
    /// mDNS group (the only place the querier sends anything). A legacy query that fits in one
    /// packet goes `copies` times, each copy with an id of its own.
    func ask(
        _ questions: [DNSQuestion], on id: MDNSLink.ID, legacy: Bool, knownAnswers: [DNSResourceRecord],
        copies: Int = 1,
        at now: ContinuousClock.Instant
    ) {
        guard !questions.isEmpty else { return }
        // Without a listener on 5353 every question goes from the query socket.
        guard let socket = (legacy ? legacySockets[id.ipv6] : listeners[id.ipv6]) ?? legacySockets[id.ipv6] else {
            return
        }
        let group = SocketAddress.group(ipv6: id.ipv6, interface: id.interface)
        // A legacy query carries a random id (RFC 6762 section 6.7). It also keeps it from being
        // byte for byte the same as the multicast query sent beside it, or as another copy,
        // which some stacks drop as a duplicate packet (python-zeroconf does). A query from
        // 5353 has id 0 and goes once: its answers come by multicast, at most once a second.
        let multicast = socket.port == 5353
        let queryID = multicast ? 0 : UInt16.random(in: 1...UInt16.max)
        var packets: [[UInt8]] = []
        for start in stride(from: 0, to: questions.count, by: 32) {
            let chunk = Array(questions[start..<min(questions.count, start + 32)])
            packets += MDNSQueryPackets.packets(
                questions: chunk, knownAnswers: start == 0 ? knownAnswers : [], id: queryID)
        }
        // Copies of a query longer than a packet would make every responder on the link read
        // them all: at 500 lab devices three copies of the repeat (its held PTRs over several
        // packets) cost 140 ms of a 680 ms scan.
        if !multicast, copies > 1, packets.count == 1 {
            // Each copy an id of its own, never one drawn before: two alike would be one packet.
            var ids: Set<UInt16> = [queryID]
            for _ in 1..<copies {
                var copyID = UInt16.random(in: 1...UInt16.max)
                while !ids.insert(copyID).inserted { copyID = UInt16.random(in: 1...UInt16.max) }
                packets += MDNSQueryPackets.packets(questions: questions, knownAnswers: knownAnswers, id: copyID)
            }
        }
        for packet in packets {
            do throws(MDNSSocketError) {
                try socket.send(packet, to: group, interface: id.interface)
                statistics.queriesSent += 1
                // Its echo comes back to the listener: it must not pass for another querier's.
                if multicast { links[id]?.questions.sent(packet, at: now) }
            } catch {
                // The interface may have just gone; the next interface scan closes it.
            }
        }
    }
}
