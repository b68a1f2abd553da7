import CastDiscovery

/// The queries heard on one link, whole: a query whose known answers go on in the packets that
/// follow from its source, each but the last with the TC bit (RFC 6762 section 7.2), is whole
/// once its last packet came; one whose rest does not come within ``continuationWait`` never is.
///
/// Both readers of what is asked on a link read whole queries: passive observation of failure
/// (section 10.5), which must not take a record listed in a later packet of the query for one
/// left unanswered (a browse listing more known answers than fit a packet, the querier's own
/// included, would otherwise flush the devices it lists), and duplicate question suppression
/// (section 7.3), which compares every known answer of the query with the querier's own.
struct MDNSQueryAssembly {
    /// A whole query: its questions, the known answers of all its packets by owner name, when
    /// its first packet came, and whether that packet was the querier's own echo.
    struct Query {
        var questions: [DNSQuestion]
        var knownAnswers: [DNSName: [DNSResourceRecord]] = [:]
        private(set) var knownAnswerCount = 0
        var at: ContinuousClock.Instant
        var isEcho: Bool

        /// The known answers the query lists for a question of `name` and `type` (of any type
        /// for an ANY question).
        func knownAnswers(_ name: DNSName, _ type: DNSRecordType) -> [DNSResourceRecord] {
            (knownAnswers[name] ?? []).filter { type == .any || $0.type == type }
        }

        /// Adds the known answers of one packet, up to ``knownAnswerLimit`` in all.
        mutating func add(_ answers: [DNSResourceRecord]) {
            for record in answers.prefix(max(0, MDNSQueryAssembly.knownAnswerLimit - knownAnswerCount)) {
                knownAnswers[record.name, default: []].append(record)
                knownAnswerCount += 1
            }
        }
    }

    /// How long the next packet of a query with TC is waited for (responders wait 400-500 ms,
    /// section 7.2).
    static let continuationWait: Duration = .seconds(1)
    /// The most queries with TC waited on at once; a further one is never whole.
    static let pendingLimit = 64
    /// The most known answers kept of one query: as many records as a link's cache holds.
    static let knownAnswerLimit = 4096

    private var pending: [SocketAddress: (query: Query, last: ContinuousClock.Instant)] = [:]

    /// Takes a query packet heard from `source` at `now` (`isEcho`: the querier's own, sent back
    /// to it); returns the query it makes whole, if any. A packet with questions starts a query
    /// (and ends one still waiting from the same source); a packet without continues the query
    /// waiting from its source, if any.
    mutating func add(
        _ message: DNSMessage, from source: SocketAddress, isEcho: Bool, at now: ContinuousClock.Instant
    ) -> Query? {
        // Rebuilt only when a waiting query is stale, not on every query packet.
        if pending.values.contains(where: { now - $0.last > Self.continuationWait }) {
            pending = pending.filter { now - $0.value.last <= Self.continuationWait }
        }
        var query: Query
        if message.questions.isEmpty {
            guard let started = pending.removeValue(forKey: source) else { return nil }
            query = started.query
        } else {
            pending[source] = nil
            query = Query(questions: message.questions, at: now, isEcho: isEcho)
        }
        query.add(message.answers)
        if message.isTruncated {
            if pending.count < Self.pendingLimit { pending[source] = (query, now) }
            return nil
        }
        return query
    }

    /// How many queries wait for their next packet.
    var waiting: Int { pending.count }
}
