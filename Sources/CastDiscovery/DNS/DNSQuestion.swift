/// One question of a DNS message (RFC 1035 section 4.1.2), with the mDNS unicast-response bit.
public struct DNSQuestion: Sendable, Hashable {
    /// The name asked about.
    public var name: DNSName
    /// The type asked for.
    public var type: DNSRecordType
    /// The class, without the unicast-response bit (1, IN, in practice).
    public var recordClass: UInt16
    /// The QU bit (the top bit of the class, RFC 6762 section 5.4): the querier prefers a
    /// unicast answer.
    public var unicastResponse: Bool

    /// The Internet class.
    public static let internetClass: UInt16 = 1

    /// Creates a question.
    public init(name: DNSName, type: DNSRecordType, recordClass: UInt16 = internetClass, unicastResponse: Bool = false)
    {
        self.name = name
        self.type = type
        self.recordClass = recordClass & 0x7FFF
        self.unicastResponse = unicastResponse
    }
}
