extension TXTRecord {
    /// The value of the first entry whose key matches `key` (ASCII case-insensitive), or `nil`
    /// when there is none. Entries with an empty key never match.
    public subscript(key: String) -> TXTValue? {
        entry(forKey: key)?.txtValue
    }

    /// Whether some entry has the key `key` (ASCII case-insensitive), as a flag or with a value.
    public func contains(key: String) -> Bool {
        entry(forKey: key) != nil
    }

    /// The value bytes of the first entry with key `key`; `nil` when absent or a boolean attribute.
    public func bytes(forKey key: String) -> [UInt8]? {
        entry(forKey: key)?.value
    }

    /// The value of the first entry with key `key` decoded as UTF-8 (invalid bytes replaced by
    /// U+FFFD); `nil` when absent or a boolean attribute.
    public func string(forKey key: String) -> String? {
        bytes(forKey: key).map(DNSSDBytes.decode)
    }

    /// The distinct non-empty keys (compared case-insensitively) in first-occurrence order,
    /// spelled as first written.
    public var keys: [String] {
        var seen: Set<[UInt8]> = []
        var result: [String] = []
        for entry in entries {
            let key = entry.key
            guard !key.isEmpty, seen.insert(key.map(DNSSDBytes.asciiLowercased)).inserted else { continue }
            result.append(entry.keyString)
        }
        return result
    }

    /// The first entry whose key matches `key`, if any.
    public func entry(forKey key: String) -> TXTEntry? {
        let wanted = Array(key.utf8)
        guard !wanted.isEmpty else { return nil }
        return entries.first { $0.hasKey(wanted) }
    }
}
