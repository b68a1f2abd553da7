/// The one merge of what the stacks report: every copy of an instance (the instance as one
/// source saw it on one interface over one IP protocol) merged into one service, and what changed
/// as ``BackendEvent``s. It runs with the discovery loop (``BackendMerger``); backends only
/// report their copies (``BackendEvent/copyAdded(_:browseType:)``,
/// ``BackendEvent/copyResolved(_:_:stillAsking:)``...), or whole services, which are taken as one
/// copy of their source.
///
/// - Every copy that a browse reports for the first time gives
///   ``BackendEvent/copyAdded(_:browseType:)``, which a scan counts as news for that browse.
/// - An instance is found when its first copy resolves, with every address known by then: while
///   other copies of it on the same source are still resolving, the first report waits for them
///   as that source's ``FirstReportWait`` says (see ``nextRelease`` and ``releaseHeld(at:)``).
/// - After that it is updated whenever the merged result changes, and removed when its last copy
///   is gone from every browse of every source.
/// - The merged result takes host, port and TXT from the newest resolution, and the addresses of
///   every copy that resolved to that same host (a whole service's addresses as it gives them,
///   when it is the only one).
/// - A copy is pending (``pendingResolves``) while it is neither resolved nor failed; a copy of
///   a source read for its cache (``MergedBackend/Role/cache``) only while no copy of its
///   instance has resolved: the daemon leaving to others what they resolved holds nothing up.
///   A source that reports an instance whole (a recording: copies, then the service) has
///   nothing pending for it, and its report is not held; removing it removes its copies.
package struct ServiceAggregator: Sendable {
    /// What the merge knows of a source.
    package struct Source: Sendable {
        var wait: FirstReportWait
        var role: MergedBackend.Role
        /// How many copies an instance can have at most on the source (its interfaces ×
        /// families): once it has that many, all resolved or failed, its first report waits no
        /// longer (``BackendEvent/copyLimit(_:)``).
        var copyLimit = Int.max
        /// Whether the source ended: its copies stay, but none is pending any more.
        var ended = false
        /// When the source made the event last taken from it, at the latest (its buffer's last
        /// push, read after taking it).
        var lastMade: ContinuousClock.Instant?
        /// The time up to which the source has handed over everything it read; nil for a source
        /// that does not say, whose waits are timed by the merge's clock alone.
        var readThrough: ContinuousClock.Instant?

        package init(wait: FirstReportWait = .standard, role: MergedBackend.Role = .asks) {
            self.wait = wait
            self.role = role
        }
    }

    private struct Copy: Sendable, Hashable {
        var source: Int
        var interfaceIndex: Int32
        var transport: ServiceAddress.Family?
        /// A whole service as its source reported it (``BackendEvent/found(_:)``): its one copy.
        var isWhole = false

        init(_ key: ServiceCopyKey, source: Int) {
            self.source = source
            interfaceIndex = key.interfaceIndex
            transport = key.transport
        }

        init(wholeFrom source: Int) {
            self.source = source
            interfaceIndex = 0
            transport = nil
            isWhole = true
        }
    }

    private struct Instance: Sendable {
        var browses: [String: Set<Copy>] = [:]
        var resolutions: [Copy: (sequence: Int, resolution: ServiceResolution)] = [:]
        var failed: Set<Copy> = []
        /// Resolved copies whose stack is still asking for more of their addresses (another
        /// family): a first report waits for them as for copies still resolving.
        var partial: Set<Copy> = []
        var reported: DiscoveredService?
        /// When the first report began to wait for the other copies.
        var heldSince: ContinuousClock.Instant?
        /// For each source that resolved a copy while the first report waits: when, in the
        /// source's own time, at the latest (``Source/lastMade``).
        var heldMade: [Int: ContinuousClock.Instant] = [:]
        /// How many of its copies are pending, by source (kept for ``pendingResolves``).
        var pending: [Int: Int] = [:]
        /// Whether a source that asks the network has resolved it (told to the ledger).
        var resolvedByAskers = false

        var copies: Set<Copy> { browses.values.reduce(into: []) { $0.formUnion($1) } }

        func isUnresolved(_ copy: Copy) -> Bool { resolutions[copy] == nil && !failed.contains(copy) }
    }

    private var sources: [Source]
    private var instances: [ServiceKey: Instance] = [:]
    private var sequence = 0
    private var pendingBySource: [Int: Int] = [:]
    /// The instances whose first report is held (``Instance/heldSince`` set).
    private var held: Set<ServiceKey> = []
    /// The held instances none of whose copies is pending (``heldReports``), kept as they
    /// change: the count is read after every change, while hundreds may be held at once.
    private var heldResolved: Set<ServiceKey> = []
    /// When each held first report is due (``releaseTime(of:)``), kept as the instances and
    /// the sources change: the next release is asked for after every event, while hundreds
    /// may be held at once.
    private var releaseTimes: [ServiceKey: ContinuousClock.Instant] = [:]
    /// The earliest of ``releaseTimes``.
    private var earliestRelease: ContinuousClock.Instant?
    /// Told which instances the asking sources resolve, for the daemons beside them.
    private let ledger: ResolutionLedger?

    /// Creates an empty merge of `sources`, in order (one for a backend that is one stack);
    /// `ledger` is told which instances the asking sources resolve.
    package init(sources: [Source] = [Source()], ledger: ResolutionLedger? = nil) {
        self.sources = sources.isEmpty ? [Source()] : sources
        self.ledger = ledger
    }

    /// A merge of one source that waits as `wait` says.
    package init(wait: FirstReportWait) {
        self.init(sources: [Source(wait: wait)])
    }

    /// The services currently reported (found and not removed), in key order.
    package var services: [DiscoveredService] {
        instances.keys.sorted().compactMap { instances[$0]?.reported }
    }

    /// How many copies are waiting for their first resolution, plus ``heldReports``: a scan
    /// that waits for resolves must wait for those reports too.
    package var pendingResolves: Int { pendingBySource.values.reduce(0, +) + heldReports }

    /// How many copies of `source` are waiting for their first resolution (held reports not
    /// counted).
    package func pendingResolves(of source: Int) -> Int { pendingBySource[source] ?? 0 }

    /// The first reports held back (waiting briefly for other copies, see ``nextRelease``) while
    /// none of their instance's copies is pending: resolved, but not yet reported.
    package var heldReports: Int { heldResolved.count }

    /// ``heldReports`` counted afresh from the instances: what the kept count must equal.
    var heldReportsRecounted: Int {
        held.count { key in instances[key].map { $0.pending.isEmpty } ?? false }
    }

    /// ``pendingResolves`` without the held reports, counted afresh: what the kept count must equal.
    var pendingCopiesRecounted: Int {
        instances.values.reduce(0) { $0 + countPending(in: $1).values.reduce(0, +) }
    }

    /// The release times of the held first reports as kept.
    var releaseTimesKept: [ServiceKey: ContinuousClock.Instant] { releaseTimes }

    /// The release times of the held first reports computed afresh: what the kept ones must equal.
    var releaseTimesRecomputed: [ServiceKey: ContinuousClock.Instant] {
        held.reduce(into: [:]) { times, key in times[key] = instances[key].flatMap(releaseTime) }
    }

    /// Notes that `source` ended: its copies stay, and none of them is pending any more.
    package mutating func sourceEnded(_ source: Int) {
        guard sources.indices.contains(source), !sources[source].ended else { return }
        sources[source].ended = true
        for key in instances.keys.sorted() {
            guard let instance = instances[key], instance.pending[source] != nil else { continue }
            store(instance, for: key)
        }
        refreshReleaseTimes()
    }

    /// When the oldest held first report must be released; nil when none is held.
    package var nextRelease: ContinuousClock.Instant? { earliestRelease }

    /// Whether the merge has anything of the instance `key`.
    package func isKnown(_ key: ServiceKey) -> Bool { instances[key] != nil }

    /// The longest a first report waits for a stack that has not read up to the end of its
    /// grace (descheduled, or busy): then it goes as it is.
    package static let stackBehindLimit: Duration = .seconds(1)

    /// How often a first report that is due but waits on a stack behind its grace is looked at
    /// again.
    package static let stackRecheck: Duration = .milliseconds(2)

    /// Notes, for `source`, when it made the event about to be taken (at the latest) and the
    /// time up to which it has handed over everything it read; nil leaves either as it was.
    package mutating func noteSource(
        _ source: Int, madeBy made: ContinuousClock.Instant? = nil, readThrough: ContinuousClock.Instant? = nil
    ) {
        guard sources.indices.contains(source) else { return }
        if let made { sources[source].lastMade = made }
        if let readThrough {
            sources[source].readThrough = max(sources[source].readThrough ?? readThrough, readThrough)
        }
    }

    /// Sets the most copies an instance can have on `source`.
    package mutating func setCopyLimit(_ limit: Int, of source: Int = 0) {
        let limit = max(1, limit)
        guard sources.indices.contains(source), sources[source].copyLimit != limit else { return }
        sources[source].copyLimit = limit
        refreshReleaseTimes()
    }

    // MARK: - What a source reports

    /// The merged events `event` of `source` makes, or nil for an event that is not about copies
    /// or services (a milestone, a count): the caller handles those.
    package mutating func take(_ event: BackendEvent, from source: Int = 0, at now: ContinuousClock.Instant)
        -> [BackendEvent]?
    {
        switch event {
        case .copyAdded(let copy, let type):
            return add(copy, browseType: type, source: source, at: now).events
        case .copyRemoved(let copy, let type):
            return remove(copy, browseType: type, source: source, at: now).events
        case .copyResolved(let copy, let resolution, let stillAsking):
            return resolved(copy, resolution, stillAsking: stillAsking, source: source, at: now)
        case .copyAddressesComplete(let copy):
            return addressesComplete(copy, source: source, at: now)
        case .copyFailed(let copy, let error):
            return resolveFailed(copy, error, source: source, at: now)
        case .copyLimit(let limit):
            setCopyLimit(limit, of: source)
            return []
        case .found(let service), .updated(let service):
            return whole(service, from: source, at: now)
        case .removed(let service):
            return removeWhole(service.key, from: source, at: now)
        case .stateChanged(.daemonLost), .stateChanged(.failed):
            return removeAll(from: source, at: now)
        case .stateChanged, .browseStarted, .cacheExhausted, .allForNow, .resolveFailed, .resolvesPending, .statistics,
            .sourceProgress:
            return nil
        }
    }

    /// Records that `browseType` reported `copy`. Returns whether the copy is new to every
    /// browse and the resulting events.
    package mutating func add(
        _ copy: ServiceCopyKey, browseType: String, source: Int = 0, at now: ContinuousClock.Instant = .now
    ) -> (isNewCopy: Bool, events: [BackendEvent]) {
        guard sources.indices.contains(source) else { return (false, []) }
        var instance = instances[copy.service] ?? Instance()
        let c = Copy(copy, source: source)
        let isNew = !instance.copies.contains(c)
        let isNewToBrowse = instance.browses[browseType, default: []].insert(c).inserted
        let events: [BackendEvent] = isNewToBrowse ? [.copyAdded(copy, browseType: browseType)] : []
        return (isNew, events + commit(instance, for: copy.service, at: now))
    }

    /// Records that `browseType` no longer reports `copy`. Returns whether the copy is now gone
    /// from every browse and the resulting events.
    package mutating func remove(
        _ copy: ServiceCopyKey, browseType: String, source: Int = 0, at now: ContinuousClock.Instant = .now
    ) -> (isCopyGone: Bool, events: [BackendEvent]) {
        guard var instance = instances[copy.service] else { return (false, []) }
        let c = Copy(copy, source: source)
        guard instance.browses[browseType]?.remove(c) != nil else { return (false, []) }
        if instance.browses[browseType]?.isEmpty == true { instance.browses[browseType] = nil }
        let gone = !instance.copies.contains(c)
        if gone { forget(c, in: &instance) }
        return (gone, commit(instance, for: copy.service, at: now))
    }

    /// Records a resolution (first or changed) of `copy`. `stillAsking` says the stack is still
    /// asking for more of its addresses (another family's): the copy counts as resolved, but the
    /// instance's first report waits for the rest as it does for copies still resolving; a later
    /// resolution, or ``addressesComplete(_:source:at:)``, ends that. A copy no browse reports
    /// is ignored.
    package mutating func resolved(
        _ copy: ServiceCopyKey, _ resolution: ServiceResolution, stillAsking: Bool = false, source: Int = 0,
        at now: ContinuousClock.Instant = .now
    ) -> [BackendEvent] {
        guard var instance = instances[copy.service] else { return [] }
        let c = Copy(copy, source: source)
        guard instance.copies.contains(c) else { return [] }
        sequence += 1
        instance.resolutions[c] = (sequence, resolution)
        if instance.reported == nil, instance.heldMade[source] == nil, let made = sources[source].lastMade {
            instance.heldMade[source] = made
        }
        instance.failed.remove(c)
        if stillAsking { instance.partial.insert(c) } else { instance.partial.remove(c) }
        return commit(instance, for: copy.service, at: now)
    }

    /// Records that the stack asks for no more of `copy`'s addresses (the other family's query
    /// ended without an answer): a first report held for them is released.
    package mutating func addressesComplete(
        _ copy: ServiceCopyKey, source: Int = 0, at now: ContinuousClock.Instant = .now
    ) -> [BackendEvent] {
        guard var instance = instances[copy.service], instance.partial.remove(Copy(copy, source: source)) != nil else {
            return []
        }
        return commit(instance, for: copy.service, at: now)
    }

    /// Records that resolving `copy` failed; the copy stays known but adds nothing. Says so
    /// (``BackendEvent/resolveFailed(_:_:)``) once per failure of a known copy.
    package mutating func resolveFailed(
        _ copy: ServiceCopyKey, _ error: DiscoveryError, source: Int = 0, at now: ContinuousClock.Instant = .now
    ) -> [BackendEvent] {
        guard var instance = instances[copy.service] else { return [] }
        let c = Copy(copy, source: source)
        guard instance.copies.contains(c), !instance.failed.contains(c) else { return [] }
        instance.failed.insert(c)
        instance.partial.remove(c)
        return [.resolveFailed(copy.service, error)] + commit(instance, for: copy.service, at: now)
    }

    /// Records a whole service as `source` reports it (a found or an update): its one copy,
    /// reported by its browses, resolved to it.
    private mutating func whole(_ service: DiscoveredService, from source: Int, at now: ContinuousClock.Instant)
        -> [BackendEvent]
    {
        guard sources.indices.contains(source) else { return [] }
        var instance = instances[service.key] ?? Instance()
        let c = Copy(wholeFrom: source)
        for type in Array(instance.browses.keys) where !service.browseTypes.contains(type) {
            instance.browses[type]?.remove(c)
            if instance.browses[type]?.isEmpty == true { instance.browses[type] = nil }
        }
        for type in service.browseTypes { instance.browses[type, default: []].insert(c) }
        guard !service.browseTypes.isEmpty else {
            forget(c, in: &instance)
            return commit(instance, for: service.key, at: now)
        }
        let resolution = ServiceResolution(
            hostName: service.service.hostName, port: service.service.port, addresses: service.service.addresses,
            txt: service.service.txt, knownHost: service.service.knownHost)
        sequence += 1
        instance.resolutions[c] = (sequence, resolution)
        instance.failed.remove(c)
        return commit(instance, for: service.key, at: now)
    }

    /// Records that `source` no longer reports the whole service `key`: none of its copies of it
    /// is left.
    private mutating func removeWhole(_ key: ServiceKey, from source: Int, at now: ContinuousClock.Instant)
        -> [BackendEvent]
    {
        guard var instance = instances[key] else { return [] }
        let theirs = instance.copies.filter { $0.source == source }
        guard theirs.contains(Copy(wholeFrom: source)) else { return [] }
        for type in Array(instance.browses.keys) {
            instance.browses[type]?.subtract(theirs)
            if instance.browses[type]?.isEmpty == true { instance.browses[type] = nil }
        }
        for c in theirs { forget(c, in: &instance) }
        return commit(instance, for: key, at: now)
    }

    /// Forgets every copy of `source` (its stack went away), reporting what that changes: a
    /// service no other source reports is removed. The services it reported whole stay: such a
    /// source reports their removal itself.
    package mutating func removeAll(from source: Int = 0, at now: ContinuousClock.Instant = .now) -> [BackendEvent] {
        var events: [BackendEvent] = []
        for key in instances.keys.sorted() {
            guard var instance = instances[key] else { continue }
            let theirs = instance.copies.filter { $0.source == source && !$0.isWhole }
            guard !theirs.isEmpty else { continue }
            for type in Array(instance.browses.keys) {
                instance.browses[type]?.subtract(theirs)
                if instance.browses[type]?.isEmpty == true { instance.browses[type] = nil }
            }
            for c in theirs { forget(c, in: &instance) }
            events += commit(instance, for: key, at: now)
        }
        return events
    }

    /// Reports the held first reports whose wait is over at `now`.
    package mutating func releaseHeld(at now: ContinuousClock.Instant = .now) -> [BackendEvent] {
        var events: [BackendEvent] = []
        guard let earliest = earliestRelease, earliest <= now else { return events }
        // Those still waiting on a stack are looked at again soon: left out before the sort.
        let due = releaseTimes.compactMap { key, release in
            release <= now && instances[key].map { !isWaitingOnStack($0, at: now) } == true ? key : nil
        }
        for key in due.sorted() {
            guard let instance = instances[key] else { continue }
            events += commit(instance, for: key, at: now)
        }
        return events
    }

    // MARK: - Merging

    private func forget(_ c: Copy, in instance: inout Instance) {
        instance.resolutions[c] = nil
        instance.failed.remove(c)
        instance.partial.remove(c)
    }

    private mutating func commit(_ instance: Instance, for key: ServiceKey, at now: ContinuousClock.Instant)
        -> [BackendEvent]
    {
        var instance = instance
        let merged = Self.merge(instance, key: key)
        var events: [BackendEvent] = []
        switch (instance.reported, merged) {
        case (nil, let new?):
            let since = instance.heldSince ?? now
            instance.heldSince = since
            if let release = releaseTime(of: instance), now < release || isWaitingOnStack(instance, at: now) {
                // Held: other copies may still come.
            } else {
                instance.heldSince = nil
                instance.heldMade = [:]
                instance.reported = new
                events.append(.found(new))
            }
        case (let old?, let new?) where old != new:
            instance.reported = new
            events.append(.updated(new))
        case (let old?, nil):
            instance.reported = nil
            events.append(.removed(old))
        case (nil, nil):
            instance.heldSince = nil
            instance.heldMade = [:]
        default:
            break
        }
        store(instance, for: key)
        return events
    }

    /// Keeps `instance` (forgets it once it has no copy): its pending copies, whether its first
    /// report is held, and whether the asking sources resolve it.
    private mutating func store(_ instance: Instance, for key: ServiceKey) {
        var instance = instance
        let isKept = !instance.copies.isEmpty
        let pending = isKept ? countPending(in: instance) : [:]
        if pending != instance.pending {
            for source in Set(pending.keys).union(instance.pending.keys) {
                let change = (pending[source] ?? 0) - (instance.pending[source] ?? 0)
                let total = (pendingBySource[source] ?? 0) + change
                pendingBySource[source] = total == 0 ? nil : total
            }
            instance.pending = pending
        }
        let resolvedByAskers = isKept && instance.resolutions.keys.contains { sources[$0.source].role == .asks }
        if resolvedByAskers != instance.resolvedByAskers {
            instance.resolvedByAskers = resolvedByAskers
            ledger?.set(key, resolved: resolvedByAskers)
        }
        instances[key] = isKept ? instance : nil
        if instance.heldSince != nil, isKept { held.insert(key) } else { held.remove(key) }
        if held.contains(key), pending.isEmpty { heldResolved.insert(key) } else { heldResolved.remove(key) }
        noteRelease(held.contains(key) ? releaseTime(of: instance) : nil, of: key)
    }

    /// Keeps `release` as when `key`'s held first report is due (nil: none is held), and the
    /// earliest of them.
    private mutating func noteRelease(_ release: ContinuousClock.Instant?, of key: ServiceKey) {
        let old = releaseTimes[key]
        guard old != release else { return }
        releaseTimes[key] = release
        if let release, let earliest = earliestRelease, release <= earliest {
            earliestRelease = release
        } else if old != nil, old == earliestRelease {
            // The earliest moved later or went: found again among the rest (rare: once per release).
            earliestRelease = releaseTimes.values.min()
        } else if earliestRelease == nil {
            earliestRelease = release
        }
    }

    /// Computes every held first report's release time again, after a change of the sources
    /// (a copy limit, an end) that they depend on.
    private mutating func refreshReleaseTimes() {
        for key in held.sorted() { noteRelease(instances[key].flatMap(releaseTime), of: key) }
    }

    /// How many copies of `instance` are pending, by source (sources with none left out):
    /// neither resolved nor failed, of a source that has not ended, and, for a source read for
    /// its cache, of an instance no copy of which has resolved.
    private func countPending(in instance: Instance) -> [Int: Int] {
        let anyResolved = !instance.resolutions.isEmpty
        // A source that reported the whole service has no copy of it left to resolve.
        let whole = Set(instance.resolutions.keys.filter(\.isWhole).map(\.source))
        var counts: [Int: Int] = [:]
        for c in instance.copies where instance.isUnresolved(c) && !whole.contains(c.source) {
            let source = sources[c.source]
            guard !source.ended, source.role == .asks || !anyResolved else { continue }
            counts[c.source, default: 0] += 1
        }
        return counts
    }

    /// When a held first report is due: the last of what each source with a resolved copy waits
    /// for. Such a source waits its longest while another copy of it is still resolving, its
    /// grace while it has fewer copies than it can have, else nothing. (The last, not the
    /// first: a stack that has all its copies, or has no grace, must not cut short another's
    /// wait for the rest, or a device would be shown with the first stack's one address.)
    private func releaseTime(of instance: Instance) -> ContinuousClock.Instant? {
        guard let since = instance.heldSince else { return nil }
        let copies = instance.copies
        var release = since
        for source in Set(instance.resolutions.keys.map(\.source)) {
            let theirs = copies.filter { $0.source == source }
            let stack = sources[source]
            let due: ContinuousClock.Instant
            if stack.ended || theirs.contains(where: \.isWhole) {
                due = since
            } else if theirs.contains(where: instance.isUnresolved)
                || instance.partial.contains(where: { $0.source == source })
            {
                due = since + stack.wait.longest
            } else if theirs.count < stack.copyLimit {
                due = since + stack.wait.grace
            } else {
                due = since
            }
            release = max(release, due)
        }
        return release
    }

    /// Whether a source that says how far it has read has not yet read up to the end of its
    /// grace, counted from when it made its resolution, while `instance`'s first report waits
    /// for copies the source has not reported (for at most ``stackBehindLimit``). Its answers
    /// for them may be unread in its sockets: the grace is judged in the stack's time, not the
    /// merge's, so a stack descheduled between two answers does not show a device with one.
    private func isWaitingOnStack(_ instance: Instance, at now: ContinuousClock.Instant) -> Bool {
        guard let since = instance.heldSince, now < since + Self.stackBehindLimit else { return false }
        for (source, made) in instance.heldMade {
            let stack = sources[source]
            guard let through = stack.readThrough, !stack.ended,
                instance.resolutions.keys.contains(where: { $0.source == source })
            else { continue }
            let theirs = instance.copies.filter { $0.source == source }
            guard !theirs.contains(where: \.isWhole), theirs.count < stack.copyLimit else { continue }
            if through < made + stack.wait.grace { return true }
        }
        return false
    }

    private static func merge(_ instance: Instance, key: ServiceKey) -> DiscoveredService? {
        let live = instance.copies
        let resolved = instance.resolutions.filter { live.contains($0.key) }
        guard let (newestCopy, newestEntry) = resolved.max(by: { $0.value.sequence < $1.value.sequence }) else {
            return nil
        }
        let newest = newestEntry.resolution
        var addresses: [ServiceAddress] = []
        if newestCopy.isWhole, resolved.count == 1 {
            // A whole service, alone: as its source gave it.
            addresses = newest.addresses
        } else {
            // One stack's copies on two interfaces of one link give the address twice, once per
            // interface (each is a way to reach it); the same address from two stacks once,
            // the first stack's (with its interface).
            let ordered = resolved.sorted { a, b in
                (a.key.source, a.key.interfaceIndex, a.key.transport == .ipv6 ? 1 : 0) < (
                    b.key.source, b.key.interfaceIndex, b.key.transport == .ipv6 ? 1 : 0
                )
            }
            var source = ordered.first?.key.source
            var earlierSources = 0
            for (copy, entry) in ordered where entry.resolution.hostName == newest.hostName {
                if copy.source != source {
                    source = copy.source
                    earlierSources = addresses.count
                }
                for address in entry.resolution.addresses
                where !addresses.contains(address)
                    && !addresses[..<earlierSources].contains(where: { $0.ip == address.ip && $0.zone == address.zone })
                {
                    addresses.append(address)
                }
            }
            // IPv4 first, then by interface and text; each address's text is made once, not per
            // comparison.
            addresses = addresses.map {
                (key: ($0.family == .ipv4 ? 0 : 1, $0.interfaceIndex ?? 0, $0.address), address: $0)
            }
            .sorted { $0.key < $1.key }.map(\.address)
        }
        let service = ResolvedService(
            instanceName: key.name, serviceType: key.type, domain: key.domain, hostName: newest.hostName,
            port: newest.port, addresses: addresses, txt: newest.txt,
            knownHost: newest.knownHost
                ?? resolved.values.sorted { $0.sequence > $1.sequence }.lazy.compactMap(\.resolution.knownHost).first)
        return DiscoveredService(service: service, browseTypes: Set(instance.browses.keys))
    }
}
