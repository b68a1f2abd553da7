import CastDiscovery

/// What other queriers asked on one link, for duplicate question suppression (RFC 6762 section
/// 7.3): a QM question another querier asked recently, listing no known answer the querier
/// would not list too, stands in for the querier's own next query for it there. The answers it
/// brings are multicast, so the querier's cache hears all that its own query would have
/// brought.
///
/// Per question (a name and a type) it keeps the last time another querier asked it, with the
/// known answers that query listed, including those that follow in packets with the TC bit
/// (section 7.2): it hears whole queries (``MDNSQueryAssembly``). The querier decides the
/// window and compares the known answers with its cache (``standsIn(for:since:holding:at:)``).
///
/// The querier's own multicast queries come back to it (`IP_MULTICAST_LOOP`), from the same
/// address and port 5353 as another stack on the same host would send: ``sent(_:at:)`` keeps
/// their bytes for ``echoWindow`` and ``isEcho(_:at:)`` recognizes each one once (the querier
/// asks only for packets from the link's own addresses), so the querier's own query never
/// stands in for its next one. Another stack on the host that sends the very same bytes is
/// still heard: the echo, which comes first, has taken the sent packet by then.
struct MDNSQuestionHistory {
    /// A question: a name and a type, class IN.
    struct Question: Hashable {
        var name: DNSName
        var type: DNSRecordType
    }

    /// When another querier last asked a question, and the known answers it listed for it.
    struct Asked: Equatable {
        var at: ContinuousClock.Instant
        var knownAnswers: Set<DNSRecordData>
    }

    /// How long a query the querier sent is kept to recognize its echo: the echo comes within
    /// milliseconds, but a busy loop may read it later. Were the echo lost, an identical query
    /// from another stack on the host in this span would be taken for it, which only costs a
    /// suppression.
    static let echoWindow: Duration = .seconds(2)
    /// The most questions remembered (as many as a link's cache holds records).
    static let capacity = 4096
    /// The most sent packets kept.
    static let sentLimit = 256
    /// No query stands in for one due more than this later (the longest continuous interval).
    static let maximumAge: Duration = .seconds(3600)

    /// The last time another querier asked each question.
    private(set) var asked: [Question: Asked] = [:]
    /// The multicast packets the querier sent in the last ``echoWindow``, oldest first.
    private var sentPackets: [(bytes: [UInt8], at: ContinuousClock.Instant)] = []

    /// Notes a packet the querier sent from port 5353 at `now`, to know its echo.
    mutating func sent(_ bytes: [UInt8], at now: ContinuousClock.Instant) {
        forgetSent(before: now - Self.echoWindow)
        if sentPackets.count >= Self.sentLimit { sentPackets.removeFirst() }
        sentPackets.append((bytes, now))
    }

    /// Whether `bytes`, heard at `now`, are the echo of a packet the querier sent; each sent
    /// packet is recognized once.
    mutating func isEcho(_ bytes: [UInt8], at now: ContinuousClock.Instant) -> Bool {
        forgetSent(before: now - Self.echoWindow)
        guard let index = sentPackets.firstIndex(where: { $0.bytes == bytes }) else { return false }
        sentPackets.remove(at: index)
        return true
    }

    /// Takes a whole query another querier sent from port 5353 (not the querier's echo; its
    /// known answers from all its packets, ``MDNSQueryAssembly``), completed at `now`: its QM
    /// questions of class IN that `wanted` accepts, each with the known answers the query lists
    /// for it, asked when its first packet came. A QU question, which may be answered by unicast
    /// to the asker alone, is not taken.
    mutating func heard(_ query: MDNSQueryAssembly.Query, at now: ContinuousClock.Instant, wanted: (Question) -> Bool) {
        let questions = query.questions
            .filter { !$0.unicastResponse && $0.recordClass == DNSQuestion.internetClass }
            .map { Question(name: $0.name, type: $0.type) }
            .filter(wanted)
        for question in Set(questions) {
            let known = query.knownAnswers(question.name, question.type).map(\.data)
            remember(question, Asked(at: query.at, knownAnswers: Set(known)), at: now)
        }
    }

    /// Whether another querier asked `question` after `start` (and at most ``maximumAge``
    /// before `now`) listing only known answers among `ours`, the known answers the querier
    /// would list itself: then its own query for it is as good as sent.
    func standsIn(
        for question: Question, since start: ContinuousClock.Instant, holding ours: Set<DNSRecordData>,
        at now: ContinuousClock.Instant
    ) -> Bool {
        guard let asked = asked[question], asked.at > start, now - asked.at <= Self.maximumAge else { return false }
        return asked.knownAnswers.isSubset(of: ours)
    }

    /// Keeps the latest asking of a question (a later one that lists a record the querier lacks
    /// thus stops an earlier one from standing in). When full, forgets what is too old to
    /// stand in; a question that still does not fit is not kept (it only suppresses nothing).
    private mutating func remember(_ question: Question, _ asking: Asked, at now: ContinuousClock.Instant) {
        if asked[question] == nil, asked.count >= Self.capacity {
            asked = asked.filter { now - $0.value.at <= Self.maximumAge }
            guard asked.count < Self.capacity else { return }
        }
        asked[question] = asking
    }

    private mutating func forgetSent(before instant: ContinuousClock.Instant) {
        let old = sentPackets.prefix { $0.at < instant }.count
        if old > 0 { sentPackets.removeFirst(old) }
    }
}
