/// What a backend that reads the network itself (the mDNS querier) counted: the packets it
/// took and the ones it dropped, and why; and, from any backend, the events its consumer did
/// not receive on their own because it fell behind (``coalescedEvents``).
public struct BackendStatistics: Sendable, Hashable, Codable {
    /// Datagrams received on the links the backend uses.
    public var packetsReceived = 0
    /// Datagrams that gave nothing: no DNS header, or nothing readable after it (dropped).
    public var malformedPackets = 0
    /// Records skipped in datagrams that gave something else: a record whose data was
    /// malformed, or the one where reading had to stop (its owner name or fields broken); the
    /// records around it were taken (RFC 6762 section 18).
    public var malformedRecords = 0
    /// Datagrams whose source is not on the link they arrived on (dropped, RFC 6762 section 11).
    public var offLinkPackets = 0
    /// Well-formed datagrams not taken: a response from a port other than 5353, another opcode,
    /// an error code, or a link the backend does not use.
    public var ignoredPackets = 0
    /// Records not cached because the cache was full.
    public var droppedRecords = 0
    /// Queries sent.
    public var queriesSent = 0
    /// Questions not sent because another querier on the link had just asked them with no known
    /// answer the backend lacks (duplicate question suppression, RFC 6762 section 7.3): one per
    /// question and link, each a continuous browse query or a TTL refresh the schedule then
    /// treated as sent.
    public var suppressedQueries = 0
    /// The known hosts that did not answer their last query, as the user gave them; nil for a
    /// backend that asks no known host.
    public var unansweredHosts: [String]?
    /// Events the consumer of the backend's stream did not receive on their own because it fell
    /// behind a full buffer (``BackendEventBuffer``): merged into a newer report of the same
    /// service, count or milestone (no state is lost), or, for announced copies and failed
    /// resolves beyond the buffer's capacity, dropped. For a merged backend, its sources' and its
    /// own. 0 in normal use.
    public var coalescedEvents = 0

    /// Creates the counts, all zero.
    public init() {}

    /// Reads the counts; ``suppressedQueries``, ``malformedRecords`` and ``coalescedEvents`` may be missing (counts
    /// written before they existed, as in older replay files) and are then 0. Every other count is
    /// required, as always.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        packetsReceived = try container.decode(Int.self, forKey: .packetsReceived)
        malformedPackets = try container.decode(Int.self, forKey: .malformedPackets)
        malformedRecords = try container.decodeIfPresent(Int.self, forKey: .malformedRecords) ?? 0
        offLinkPackets = try container.decode(Int.self, forKey: .offLinkPackets)
        ignoredPackets = try container.decode(Int.self, forKey: .ignoredPackets)
        droppedRecords = try container.decode(Int.self, forKey: .droppedRecords)
        queriesSent = try container.decode(Int.self, forKey: .queriesSent)
        suppressedQueries = try container.decodeIfPresent(Int.self, forKey: .suppressedQueries) ?? 0
        unansweredHosts = try container.decodeIfPresent([String].self, forKey: .unansweredHosts)
        coalescedEvents = try container.decodeIfPresent(Int.self, forKey: .coalescedEvents) ?? 0
    }
}

extension BackendStatistics {
    /// Reads a datagram record by record (``DNSMessage/decodingLeniently(_:)``), counting a
    /// datagram that gave nothing in ``malformedPackets`` (and returning nil) and the records
    /// skipped in one that gave something in ``malformedRecords``.
    package mutating func read(_ datagram: [UInt8]) -> DNSMessage? {
        guard let decoding = try? DNSMessage.decodingLeniently(datagram), decoding.isComplete || !decoding.gaveNothing
        else {
            malformedPackets += 1
            return nil
        }
        malformedRecords += decoding.malformedRecordCount
        return decoding.message
    }
}
