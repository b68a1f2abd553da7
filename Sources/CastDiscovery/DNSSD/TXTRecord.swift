/// A DNS-SD TXT record (RFC 6763 section 6): an ordered list of strings of at most 255 bytes,
/// read as `key=value` attributes, together with anything unusual found while reading it.
public struct TXTRecord: Sendable, Hashable {
    /// Every string in order as received, duplicates included. Only zero-length strings read from
    /// the wire (or from ``init(strings:)``) and a truncated tail are left out; both appear in ``issues``.
    public let entries: [TXTEntry]

    /// Anything unusual found while reading the record, in the order it was found.
    public let issues: [TXTRecordIssue]

    /// Creates a record from entries, kept exactly as given (empty ones included, reported as
    /// ``TXTRecordIssue/emptyString(index:)``), and reports empty and duplicate keys.
    public init(entries: [TXTEntry]) {
        self.init(received: entries, droppingEmpty: false, truncation: nil)
    }

    /// Creates a record from the strings a resolver reports, in order; zero-length strings are
    /// dropped and reported.
    public init(strings: [[UInt8]]) {
        self.init(received: strings.map(TXTEntry.init(bytes:)), droppingEmpty: true, truncation: nil)
    }

    /// Reads a record from its wire format (length-prefixed strings). Never fails: a truncated tail
    /// and zero-length strings are dropped and reported. Empty input or a single zero byte is the
    /// empty record.
    public init(wireFormat: [UInt8]) {
        if wireFormat.isEmpty || wireFormat == [0] {
            self.init(received: [], droppingEmpty: true, truncation: nil)
            return
        }
        var strings: [TXTEntry] = []
        var truncation: TXTRecordIssue?
        var offset = 0
        while offset < wireFormat.count {
            let length = Int(wireFormat[offset])
            let available = wireFormat.count - offset - 1
            guard length <= available else {
                truncation = .truncated(offset: offset, declaredLength: length, available: available)
                break
            }
            let start = offset + 1
            strings.append(TXTEntry(bytes: Array(wireFormat[start..<(start + length)])))
            offset = start + length
        }
        self.init(received: strings, droppingEmpty: true, truncation: truncation)
    }

    /// Builds the record, recording issues for strings in received order.
    private init(received: [TXTEntry], droppingEmpty: Bool, truncation: TXTRecordIssue?) {
        var entries: [TXTEntry] = []
        entries.reserveCapacity(received.count)
        var issues: [TXTRecordIssue] = []
        var seenKeys: Set<[UInt8]> = []
        for (index, entry) in received.enumerated() {
            if entry.bytes.isEmpty {
                issues.append(.emptyString(index: index))
                if !droppingEmpty { entries.append(entry) }
                continue
            }
            let key = entry.key
            if key.isEmpty {
                issues.append(.emptyKey(index: index))
            } else if !seenKeys.insert(key.map(DNSSDBytes.asciiLowercased)).inserted {
                issues.append(.duplicateKey(key: entry.keyString, index: index))
            }
            entries.append(entry)
        }
        if let truncation { issues.append(truncation) }
        self.entries = entries
        self.issues = issues
    }

    /// The record in wire format: each entry as a length byte followed by its bytes. The empty
    /// record encodes as a single zero byte. Fails when an entry is empty or longer than 255 bytes.
    public func wireFormat() throws(TXTRecordError) -> [UInt8] {
        guard !entries.isEmpty else { return [0] }
        var out: [UInt8] = []
        out.reserveCapacity(entries.reduce(0) { $0 + $1.bytes.count + 1 })
        for (index, entry) in entries.enumerated() {
            let length = entry.bytes.count
            if length == 0 { throw .emptyEntry(index: index) }
            if length > 255 { throw .entryTooLong(index: index, length: length) }
            out.append(UInt8(length))
            out.append(contentsOf: entry.bytes)
        }
        return out
    }
}
