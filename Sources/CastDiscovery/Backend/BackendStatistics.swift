/// What a backend that reads the network itself (the mDNS querier) counted: the packets it
/// took and the ones it dropped, and why.
public struct BackendStatistics: Sendable, Hashable, Codable {
    /// Datagrams received on the links the backend uses.
    public var packetsReceived = 0
    /// Datagrams that were not well-formed DNS messages (dropped).
    public var malformedPackets = 0
    /// Datagrams whose source is not on the link they arrived on (dropped, RFC 6762 section 11).
    public var offLinkPackets = 0
    /// Well-formed datagrams not taken: a response from a port other than 5353, another opcode,
    /// an error code, or a link the backend does not use.
    public var ignoredPackets = 0
    /// Records not cached because the cache was full.
    public var droppedRecords = 0
    /// Queries sent.
    public var queriesSent = 0
    /// The known hosts that did not answer their last query, as the user gave them; nil for a
    /// backend that asks no known host.
    public var unansweredHosts: [String]?

    /// Creates the counts, all zero.
    public init() {}
}
