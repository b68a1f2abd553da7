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
        self.init(wireSlice: wireFormat[...])
    }

    /// Reads a record from wire bytes inside a larger buffer (a DNS message), sharing them: one
    /// pass over the bytes, the entries slices of them, no copy.
    init(wireSlice wireFormat: ArraySlice<UInt8>) {
        if wireFormat.isEmpty || (wireFormat.count == 1 && wireFormat.first == 0) {
            self.init(received: [], droppingEmpty: true, truncation: nil)
            return
        }
        let base = wireFormat.startIndex
        var entries: [TXTEntry] = []
        var issues: [TXTRecordIssue] = []
        wireFormat.withUnsafeBufferPointer { bytes in
            // Each string's start, end and key end, relative to `bytes`, and a fingerprint of a
            // short key (its length and lower-cased bytes in one word; 0 for keys over 7 bytes),
            // so the duplicate check of a Cast record's two-letter keys compares words.
            var spans: [(start: Int, end: Int, keyEnd: Int, fingerprint: UInt64)] = []
            spans.reserveCapacity(16)
            var offset = 0
            var index = 0
            while offset < bytes.count {
                let length = Int(bytes[offset])
                let available = bytes.count - offset - 1
                guard length <= available else {
                    issues.append(.truncated(offset: offset, declaredLength: length, available: available))
                    break
                }
                let start = offset + 1
                let end = start + length
                offset = end
                defer { index += 1 }
                guard length > 0 else {
                    issues.append(.emptyString(index: index))
                    continue
                }
                var keyEnd = start
                while keyEnd < end, bytes[keyEnd] != DNSSDBytes.equals { keyEnd += 1 }
                let fingerprint = Self.fingerprint(bytes, start, keyEnd)
                if keyEnd == start {
                    issues.append(.emptyKey(index: index))
                } else if spans.contains(where: { span in
                    fingerprint != 0
                        ? span.fingerprint == fingerprint
                        : span.fingerprint == 0 && Self.sameKey(bytes, span.start, span.keyEnd, start, keyEnd)
                }) {
                    issues.append(.duplicateKey(key: DNSSDBytes.decode(bytes[start..<keyEnd]), index: index))
                }
                spans.append((start, end, keyEnd, fingerprint))
            }
            if let truncation = issues.last, case .truncated = truncation {
                // The truncation is reported after the other issues, as init(received:) does.
                issues.removeLast()
                issues.append(truncation)
            }
            entries.reserveCapacity(spans.count)
            for span in spans { entries.append(TXTEntry(slice: wireFormat[(base + span.start)..<(base + span.end)])) }
        }
        self.init(checkedEntries: entries, issues: issues)
    }

    /// A record whose issues are already known.
    private init(checkedEntries: [TXTEntry], issues: [TXTRecordIssue]) {
        self.entries = checkedEntries
        self.issues = issues
    }

    /// The key `bytes[start..<end]` lower-cased, with its length, in one word; 0 when it is empty
    /// or longer than 7 bytes.
    private static func fingerprint(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
        guard end > start, end - start <= 7 else { return 0 }
        var word = UInt64(end - start)
        for index in start..<end { word = word << 8 | UInt64(DNSSDBytes.asciiLowercased(bytes[index])) }
        return word
    }

    /// Whether the keys `bytes[a..<aEnd]` and `bytes[b..<bEnd]` are equal, ASCII case-insensitively.
    private static func sameKey(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Int, _ aEnd: Int, _ b: Int, _ bEnd: Int)
        -> Bool
    {
        guard aEnd - a == bEnd - b, aEnd > a else { return false }
        for offset in 0..<(aEnd - a)
        where DNSSDBytes.asciiLowercased(bytes[a + offset]) != DNSSDBytes.asciiLowercased(bytes[b + offset]) {
            return false
        }
        return true
    }

    /// Builds the record, recording issues for strings in received order.
    private init(received: [TXTEntry], droppingEmpty: Bool, truncation: TXTRecordIssue?) {
        var entries: [TXTEntry] = []
        entries.reserveCapacity(received.count)
        var issues: [TXTRecordIssue] = []
        // Keys seen, for the duplicate check: compared pairwise while there are few (a Cast
        // record has about a dozen), hashed beyond that.
        var seenKeys: Set<[UInt8]>?
        for (index, entry) in received.enumerated() {
            if entry.storage.isEmpty {
                issues.append(.emptyString(index: index))
                if !droppingEmpty { entries.append(entry) }
                continue
            }
            let key = entry.keySlice
            if key.isEmpty {
                issues.append(.emptyKey(index: index))
            } else if Self.isDuplicate(key, in: entries, seen: &seenKeys) {
                issues.append(.duplicateKey(key: entry.keyString, index: index))
            }
            entries.append(entry)
        }
        if let truncation { issues.append(truncation) }
        self.entries = entries
        self.issues = issues
    }

    /// Whether an entry of `earlier` has the key `key` (ASCII case-insensitive); records the key.
    private static func isDuplicate(_ key: ArraySlice<UInt8>, in earlier: [TXTEntry], seen: inout Set<[UInt8]>?) -> Bool
    {
        if seen == nil, earlier.count < 24 {
            return earlier.contains { !$0.keySlice.isEmpty && DNSSDBytes.asciiCaseInsensitiveEqual($0.keySlice, key) }
        }
        if seen == nil {
            seen = Set(earlier.compactMap { $0.keySlice.isEmpty ? nil : $0.keySlice.map(DNSSDBytes.asciiLowercased) })
        }
        return !seen!.insert(key.map(DNSSDBytes.asciiLowercased)).inserted
    }

    /// The record in wire format: each entry as a length byte followed by its bytes. The empty
    /// record encodes as a single zero byte. Fails when an entry is empty or longer than 255 bytes.
    public func wireFormat() throws(TXTRecordError) -> [UInt8] {
        guard !entries.isEmpty else { return [0] }
        var out: [UInt8] = []
        out.reserveCapacity(entries.reduce(0) { $0 + $1.count + 1 })
        for (index, entry) in entries.enumerated() {
            let length = entry.count
            if length == 0 { throw .emptyEntry(index: index) }
            if length > 255 { throw .entryTooLong(index: index, length: length) }
            out.append(UInt8(length))
            out.append(contentsOf: entry.storage)
        }
        return out
    }
}
