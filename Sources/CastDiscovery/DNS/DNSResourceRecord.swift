/// One resource record of a DNS message (RFC 1035 section 4.1.3), with the mDNS cache-flush bit.
public struct DNSResourceRecord: Sendable, Hashable {
    /// The record's owner name.
    public var name: DNSName
    /// The class, without the cache-flush bit (1, IN, in practice).
    public var recordClass: UInt16
    /// The cache-flush bit (the top bit of the class, RFC 6762 section 10.2): the record is
    /// unique, and older records of the same name, type and class are to be flushed.
    public var cacheFlush: Bool
    /// The time to live, in seconds; 0 is a goodbye (RFC 6762 section 10.1).
    public var ttl: UInt32
    /// The record's data, which also gives its type.
    public var data: DNSRecordData

    /// Creates a record.
    public init(
        name: DNSName, recordClass: UInt16 = DNSQuestion.internetClass, cacheFlush: Bool = false, ttl: UInt32,
        data: DNSRecordData
    ) {
        self.name = name
        self.recordClass = recordClass & 0x7FFF
        self.cacheFlush = cacheFlush
        self.ttl = ttl
        self.data = data
    }

    /// The record's type.
    public var type: DNSRecordType { data.type }
}
