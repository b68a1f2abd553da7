import CastDiscovery

/// Copies that each wait for a time of their own, kept in the order they fall due: taking the
/// due ones and finding the next due time cost nothing per copy waiting, as a thousand may wait
/// at once. A browse keeps two: the copies it leaves to the asking sources for a while (due to
/// be resolved here), and the copies whose resolve timed out (due to be given up).
struct CopySchedule {
    private var due: [ServiceCopyKey: ContinuousClock.Instant] = [:]
    /// Every entry made, by due time; an entry whose copy was removed or scheduled again is
    /// skipped when it comes up.
    private var order: [(key: ServiceCopyKey, due: ContinuousClock.Instant)] = []
    private var head = 0

    /// Takes every copy waiting, due or not, in the order they fall due.
    mutating func takeAll() -> [ServiceCopyKey] {
        let waiting = order[head...].filter { due[$0.key] == $0.due }.map(\.key)
        removeAll()
        return waiting
    }

    /// Makes `key` wait until `instant` (replacing an earlier time of it).
    mutating func add(_ key: ServiceCopyKey, until instant: ContinuousClock.Instant) {
        due[key] = instant
        if let last = order.last, last.due > instant {
            // Out of order (a wait shorter than one made before): kept in order all the same.
            let position = order[head...].firstIndex { $0.due > instant } ?? order.endIndex
            order.insert((key, instant), at: position)
        } else {
            order.append((key, instant))
        }
    }

    /// Stops waiting for `key`; returns whether it was waiting.
    @discardableResult
    mutating func remove(_ key: ServiceCopyKey) -> Bool {
        guard due.removeValue(forKey: key) != nil else { return false }
        if due.isEmpty { removeAll() }
        return true
    }

    /// Stops waiting for every copy.
    mutating func removeAll() {
        due = [:]
        order = []
        head = 0
    }

    /// Takes the copies due at `now`, in the order they fell due.
    mutating func takeDue(at now: ContinuousClock.Instant) -> [ServiceCopyKey] {
        var taken: [ServiceCopyKey] = []
        while head < order.count, order[head].due <= now {
            let entry = order[head]
            head += 1
            if due[entry.key] == entry.due {
                due[entry.key] = nil
                taken.append(entry.key)
            }
        }
        compact()
        return taken
    }

    /// When the next copy falls due; nil when none waits.
    mutating func nextDue() -> ContinuousClock.Instant? {
        while head < order.count, due[order[head].key] != order[head].due { head += 1 }
        compact()
        return head < order.count ? order[head].due : nil
    }

    /// Drops the entries already passed once they are half the array.
    private mutating func compact() {
        guard head > 64, head * 2 > order.count else { return }
        order.removeFirst(head)
        head = 0
    }
}
