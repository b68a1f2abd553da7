/// A DNS message (RFC 1035 section 4), with the mDNS rules of RFC 6762 sections 18 and 19: the
/// header, the questions, and the answer, authority and additional records.
///
/// ``init(decoding:)`` reads one from the wire and ``encoded()`` writes one, compressing names.
public struct DNSMessage: Sendable, Hashable {
    /// The largest message read or written, in bytes (RFC 6762 section 17).
    public static let maximumSize = 9000

    /// The query id: 0 in multicast, echoed in answers to a legacy unicast query.
    public var id: UInt16
    /// The header's flag bits (QR, opcode, AA, TC, RD, RA, Z, AD, CD, RCODE) as on the wire.
    public var flags: UInt16
    /// The questions.
    public var questions: [DNSQuestion]
    /// The answer section.
    public var answers: [DNSResourceRecord]
    /// The authority section (probes put their proposed records here).
    public var authorities: [DNSResourceRecord]
    /// The additional section (DNS-SD answers put SRV, TXT, A and AAAA here).
    public var additionals: [DNSResourceRecord]

    /// The QR bit: a response.
    public static let responseFlag: UInt16 = 0x8000
    /// The AA bit: an authoritative answer, set on every mDNS response.
    public static let authoritativeFlag: UInt16 = 0x0400
    /// The TC bit: in a query, more known answers follow in the next message.
    public static let truncatedFlag: UInt16 = 0x0200

    /// Creates a message.
    public init(
        id: UInt16 = 0, flags: UInt16 = 0, questions: [DNSQuestion] = [], answers: [DNSResourceRecord] = [],
        authorities: [DNSResourceRecord] = [], additionals: [DNSResourceRecord] = []
    ) {
        self.id = id
        self.flags = flags
        self.questions = questions
        self.answers = answers
        self.authorities = authorities
        self.additionals = additionals
    }

    /// Whether the message is a response (QR set).
    public var isResponse: Bool { flags & Self.responseFlag != 0 }
    /// Whether the TC bit is set.
    public var isTruncated: Bool { flags & Self.truncatedFlag != 0 }
    /// The opcode (0, a standard query, is the only one mDNS uses).
    public var opcode: UInt8 { UInt8((flags >> 11) & 0xF) }
    /// The response code.
    public var responseCode: UInt8 { UInt8(flags & 0xF) }

    /// Every record of the three record sections, in order.
    public var records: [DNSResourceRecord] { answers + authorities + additionals }
}
