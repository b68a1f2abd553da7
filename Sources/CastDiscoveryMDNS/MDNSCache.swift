import CastDiscovery

/// The records one link (an interface and an address family) has heard, with the rules of
/// RFC 6762 section 10: records live for their TTL; a goodbye (TTL 0) is kept one more second; a
/// record with the cache-flush bit gives the older records of its set (same name and type,
/// other data, received more than a second before) one second to live; a record that two or
/// more queries asked for without an answer within ten seconds is flushed (passive observation
/// of failure, section 10.5). Records to be refreshed are due at 80, 85, 90 and 95% of their
/// TTL (section 5.2).
///
/// The cache holds at most ``capacity`` records: a record that would exceed it is dropped and
/// counted, so a flood of unique names cannot grow memory without limit; records already held
/// are still refreshed.
struct MDNSCache {
    /// A record set: a name and a type.
    struct SetKey: Hashable {
        var name: DNSName
        var type: DNSRecordType
    }

    /// A cached record and its clocks.
    struct Entry {
        var record: DNSResourceRecord
        var received: ContinuousClock.Instant
        var expires: ContinuousClock.Instant
        /// How many of the refresh points (80, 85, 90, 95%) have been passed.
        var refreshes = 0
        /// Unanswered queries for the record since it was last heard.
        var unanswered: [ContinuousClock.Instant] = []

        /// The record's original TTL.
        var ttl: UInt32 { record.ttl }

        /// The instant of refresh point `index` (0-3), or nil after the last.
        func refreshPoint(_ index: Int, jitter: Double) -> ContinuousClock.Instant? {
            guard index < 4, ttl > 0 else { return nil }
            let fraction = 0.80 + 0.05 * Double(index) + jitter
            return received + .seconds(clamping: Double(ttl) * fraction)
        }

        /// The part of the TTL left at `now`, 0 to 1.
        func remaining(at now: ContinuousClock.Instant) -> Double {
            guard ttl > 0 else { return 0 }
            let left = (expires - now) / .seconds(Double(ttl))
            return max(0, min(1, left))
        }
    }

    /// What an incoming record did to the cache.
    enum Change: Equatable {
        /// Not kept: a goodbye for a record not held, or the cache is full.
        case ignored
        /// The cache is full: the record was dropped.
        case dropped
        /// A record not held before.
        case added
        /// A record held already, heard again.
        case refreshed
        /// A goodbye for a held record: it goes in a second.
        case goodbye
    }

    /// The most records held.
    let capacity: Int
    private(set) var sets: [SetKey: [DNSRecordData: Entry]] = [:]
    private(set) var count = 0
    /// A random 0-2% added to each refresh point (RFC 6762 section 5.2), fixed per cache.
    private(set) var jitter: Double
    /// No record expires, is flushed or reaches a refresh point before this instant (nil: the
    /// cache is empty). Lowered as records come; made exact by each scan. It lets ``expire(at:)``,
    /// ``dueRefreshes(at:interesting:)`` and ``nextDeadline()`` skip the records between events,
    /// so a packet costs the records it carries, not the records held.
    private var earliest: ContinuousClock.Instant?

    /// A cache of at most `capacity` records, whose refresh points are `refreshJitter` (0 to
    /// 0.02, of the TTL; 0 in tests that want the points exactly) after 80, 85, 90 and 95%.
    init(capacity: Int = 4096, refreshJitter: Double = 0) {
        self.capacity = capacity
        jitter = min(max(refreshJitter, 0), 0.02)
    }

    /// Takes a record from a response heard at `now`.
    mutating func insert(_ record: DNSResourceRecord, at now: ContinuousClock.Instant) -> Change {
        let key = SetKey(name: record.name, type: record.type)
        // Taken out while changed, so the set is not copied (a PTR set can hold thousands).
        var entries = sets.removeValue(forKey: key) ?? [:]
        defer { sets[key] = entries.isEmpty ? nil : entries }
        if record.cacheFlush {
            // Records of the set received more than a second ago, with other data, are stale.
            for (data, entry) in entries where data != record.data && now - entry.received > .seconds(1) {
                entries[data]?.expires = min(entry.expires, now + .seconds(1))
                lower(to: now + .seconds(1))
            }
        }
        if var entry = entries[record.data] {
            if record.ttl == 0 {
                entry.expires = min(entry.expires, now + .seconds(1))
                entry.record.ttl = 0
                entries[record.data] = entry
                lower(to: entry.expires)
                return .goodbye
            }
            entry = Entry(record: record, received: now, expires: now + .seconds(Int64(record.ttl)))
            entries[record.data] = entry
            lower(to: deadline(of: entry))
            return .refreshed
        }
        guard record.ttl > 0 else { return .ignored }
        guard count < capacity else { return .dropped }
        let entry = Entry(record: record, received: now, expires: now + .seconds(Int64(record.ttl)))
        entries[record.data] = entry
        count += 1
        lower(to: deadline(of: entry))
        return .added
    }

    /// The live records of a set at `now`, the most recently received first.
    func records(_ name: DNSName, _ type: DNSRecordType, at now: ContinuousClock.Instant) -> [DNSResourceRecord] {
        (sets[SetKey(name: name, type: type)] ?? [:]).values.filter { $0.expires > now }
            .sorted { $0.received > $1.received }.map(\.record)
    }

    /// Whether the set holds a live record with this data at `now`.
    func contains(_ name: DNSName, _ type: DNSRecordType, _ data: DNSRecordData, at now: ContinuousClock.Instant)
        -> Bool
    {
        sets[SetKey(name: name, type: type)]?[data].map { $0.expires > now } ?? false
    }

    /// The records of a set a query may list as known answers at `now`: those with more than
    /// half their TTL left (RFC 6762 section 7.1).
    func knownAnswers(_ name: DNSName, _ type: DNSRecordType, at now: ContinuousClock.Instant) -> [DNSResourceRecord] {
        (sets[SetKey(name: name, type: type)] ?? [:]).values
            .filter { $0.remaining(at: now) > 0.5 && $0.record.ttl > 0 }.map(\.record)
    }

    /// Notes a multicast query seen at `now` for a set, with the known answers it listed: each
    /// held record it did not list was asked for and should be answered.
    mutating func noteQuery(
        _ name: DNSName, _ type: DNSRecordType, listing known: [DNSRecordData], at now: ContinuousClock.Instant
    ) {
        let types: [DNSRecordType] = type == .any ? sets.keys.filter { $0.name == name }.map(\.type) : [type]
        for type in types {
            let key = SetKey(name: name, type: type)
            guard var entries = sets.removeValue(forKey: key) else { continue }
            for (data, entry) in entries
            where !known.contains(data) && entry.record.ttl > 0 && entry.unanswered.count < 4 {
                entries[data]?.unanswered.append(now)
                if let updated = entries[data] { lower(to: deadline(of: updated)) }
            }
            sets[key] = entries
        }
    }

    /// Removes what has expired or was flushed by passive observation at `now`; returns it.
    mutating func expire(at now: ContinuousClock.Instant) -> [DNSResourceRecord] {
        guard let earliest, earliest <= now else { return [] }
        var removed: [DNSResourceRecord] = []
        for (key, entries) in sets {
            let kept = entries.filter { _, entry in
                let unanswered = entry.unanswered.count >= 2 && now - entry.unanswered[0] >= .seconds(10)
                if entry.expires <= now || unanswered {
                    removed.append(entry.record)
                    return false
                }
                return true
            }
            if kept.count != entries.count {
                count -= entries.count - kept.count
                sets[key] = kept.isEmpty ? nil : kept
            }
        }
        recomputeEarliest()
        return removed
    }

    /// The sets with a record of interest past its next refresh point at `now`; marks them asked.
    /// Records of no interest pass their refresh points silently.
    mutating func dueRefreshes(at now: ContinuousClock.Instant, interesting: (SetKey) -> Bool) -> [SetKey] {
        guard let earliest, earliest <= now else { return [] }
        var due: [SetKey] = []
        for (key, entries) in sets {
            var entries = entries
            var passed = false
            for (data, entry) in entries {
                guard let point = entry.refreshPoint(entry.refreshes, jitter: jitter), point <= now else { continue }
                var entry = entry
                while let next = entry.refreshPoint(entry.refreshes, jitter: jitter), next <= now {
                    entry.refreshes += 1
                }
                entries[data] = entry
                passed = true
            }
            if passed {
                sets[key] = entries
                if interesting(key) { due.append(key) }
            }
        }
        recomputeEarliest()
        return due
    }

    /// The earliest instant something in the cache may change on its own: an expiry, a passive
    /// flush, or a refresh point.
    func nextDeadline() -> ContinuousClock.Instant? {
        earliest
    }

    /// Forgets everything (the link went away); returns what was held.
    mutating func removeAll() -> [DNSResourceRecord] {
        let all = sets.values.flatMap { $0.values.map(\.record) }
        sets = [:]
        count = 0
        earliest = nil
        return all
    }

    private func deadline(of entry: Entry) -> ContinuousClock.Instant {
        var next = entry.expires
        if entry.unanswered.count >= 2 { next = min(next, entry.unanswered[0] + .seconds(10)) }
        if let point = entry.refreshPoint(entry.refreshes, jitter: jitter) { next = min(next, point) }
        return next
    }

    private mutating func lower(to instant: ContinuousClock.Instant) {
        earliest = min(earliest ?? instant, instant)
    }

    private mutating func recomputeEarliest() {
        earliest = nil
        for entries in sets.values {
            for entry in entries.values { lower(to: deadline(of: entry)) }
        }
    }
}
