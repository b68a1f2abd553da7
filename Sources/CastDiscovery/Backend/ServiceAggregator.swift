/// Merges what a DNS-SD stack reports per interface, per IP protocol and per browse into one
/// service per instance, and says what changed as ``BackendEvent``s: the merging every backend
/// shares, and the one store of per-copy state. A backend reports what it saw (a copy a browse
/// reports or no longer reports, its resolution, its failure) and asks the aggregator what it
/// knows of a copy (``resolution(of:)``, ``browseTypes(of:)``, ``hasFailed(_:)``); it keeps only
/// what its native API needs (resolvers, refs, query schedules). Pending resolves are counted
/// here for every backend (``pendingResolves``).
///
/// - Every copy (interface × family) that a browse reports for the first time gives
///   ``BackendEvent/copyAdded(_:browseType:)``, which a scan counts as news for that browse.
/// - An instance is found when its first copy resolves, with every address known by then: while
///   other copies of it are still resolving, the first report waits for them, for at most
///   ``hold`` (see ``nextRelease`` and ``releaseHeld(at:)``), so a device is first
///   shown with its IPv4 and IPv6 addresses together rather than inserted, then updated at once.
/// - After that it is updated whenever the merged result changes, and removed when its last copy
///   is gone from every browse.
/// - The merged result takes host, port and TXT from the newest resolution, and the addresses of
///   every copy that resolved to that same host.
package struct ServiceAggregator: Sendable {
    /// The longest a new instance's first report waits for its other copies to resolve, unless
    /// the stack says otherwise (``hold``).
    package static let firstReportHold: Duration = .milliseconds(150)

    private struct Instance: Sendable {
        var browses: [String: Set<Copy>] = [:]
        var resolutions: [Copy: (sequence: Int, resolution: ServiceResolution)] = [:]
        var failed: Set<Copy> = []
        /// Copies the stack does not resolve because another source resolved their service.
        var leftToOthers: Set<Copy> = []
        /// Resolved copies whose stack is still asking for more of their addresses (another
        /// family): a first report waits for them as for copies still resolving.
        var partial: Set<Copy> = []
        var reported: DiscoveredService?
        /// When the first report began to wait for the other copies.
        var heldSince: ContinuousClock.Instant?

        var copies: Set<Copy> { browses.values.reduce(into: []) { $0.formUnion($1) } }

        /// Whether a copy is neither resolved, failed nor left to another source.
        var hasUnresolvedCopies: Bool {
            browses.values.contains { copies in
                copies.contains { resolutions[$0] == nil && !failed.contains($0) && !leftToOthers.contains($0) }
            }
        }

        /// Whether a first report should still wait: a copy is unresolved, or resolved while
        /// its other addresses are still being asked for.
        var hasPendingCopies: Bool { hasUnresolvedCopies || !partial.isEmpty }
    }

    private struct Copy: Sendable, Hashable {
        var interfaceIndex: Int32
        var transport: ServiceAddress.Family?

        init(_ key: ServiceCopyKey) {
            interfaceIndex = key.interfaceIndex
            transport = key.transport
        }
    }

    private var instances: [ServiceKey: Instance] = [:]
    private var sequence = 0
    private var pending: Set<ServiceCopyKey> = []
    /// The instances whose first report is held (``Instance/heldSince`` set).
    private var held: Set<ServiceKey> = []
    /// The held instances none of whose copies is unresolved (``heldReports``), kept as they
    /// change: the count is read after every change, while hundreds may be held at once.
    private var heldResolved: Set<ServiceKey> = []
    /// How long a first report waits even when no other copy is known yet: for stacks whose
    /// copies arrive on separate sockets a few milliseconds apart.
    private let grace: Duration
    /// The longest a first report waits for copies still resolving.
    package let hold: Duration
    /// How many copies an instance can have at most (the stack's interfaces × families): once
    /// an instance has that many, all resolved or failed, its first report waits no longer.
    package var expectedCopies = Int.max

    /// Creates an empty aggregator; a new instance's first report waits `grace` for copies not
    /// heard of yet, and up to `hold` for copies still resolving.
    package init(grace: Duration = .zero, hold: Duration = firstReportHold) {
        self.hold = max(hold, .zero)
        self.grace = min(grace, self.hold)
    }

    /// The services currently reported (found and not removed), in key order.
    package var services: [DiscoveredService] {
        instances.keys.sorted().compactMap { instances[$0]?.reported }
    }

    /// How many copies are waiting for their first resolution (neither resolved nor failed),
    /// plus ``heldReports``: a scan that waits for resolves must wait for those reports too.
    package var pendingResolves: Int { pending.count + heldReports }

    /// The first reports held back (waiting briefly for other copies, see ``nextRelease``) while
    /// none of their instance's copies is pending: resolved, but not yet reported.
    package var heldReports: Int { heldResolved.count }

    /// ``heldReports`` counted afresh from the instances: what the kept count must equal.
    var heldReportsRecounted: Int {
        held.count { key in !(instances[key]?.hasUnresolvedCopies ?? false) }
    }

    /// When the oldest held first report must be released; nil when none is held.
    package var nextRelease: ContinuousClock.Instant? {
        held.compactMap { key in instances[key].flatMap(releaseTime) }.min()
    }

    /// The latest resolution of `copy`, if it has resolved.
    package func resolution(of copy: ServiceCopyKey) -> ServiceResolution? {
        instances[copy.service]?.resolutions[Copy(copy)]?.resolution
    }

    /// The browses that report `copy` now; empty for a copy not known.
    package func browseTypes(of copy: ServiceCopyKey) -> Set<String> {
        guard let browses = instances[copy.service]?.browses else { return [] }
        let c = Copy(copy)
        return Set(browses.compactMap { $0.value.contains(c) ? $0.key : nil })
    }

    /// Whether any copy of `service` has resolved.
    package func hasResolvedCopy(of service: ServiceKey) -> Bool {
        !(instances[service]?.resolutions.isEmpty ?? true)
    }

    /// Whether `copy`'s last resolve was reported failed (and it has not resolved since).
    package func hasFailed(_ copy: ServiceCopyKey) -> Bool {
        instances[copy.service]?.failed.contains(Copy(copy)) ?? false
    }

    /// The known copies seen on the interface with `interfaceIndex`, in key order.
    package func copies(onInterface interfaceIndex: Int32) -> [ServiceCopyKey] {
        instances.keys.sorted().flatMap { key in
            (instances[key]?.copies ?? []).filter { $0.interfaceIndex == interfaceIndex }
                .map { ServiceCopyKey(service: key, interfaceIndex: $0.interfaceIndex, transport: $0.transport) }
                .sorted { ($0.transport == .ipv6 ? 1 : 0) < ($1.transport == .ipv6 ? 1 : 0) }
        }
    }

    /// Makes `copy` reported by exactly `browseTypes`: adds it to the browses that are new, then
    /// removes it from those that no longer report it (all of them for an empty set), so a copy
    /// that moves from one browse to another keeps its resolution. Returns whether it is new to
    /// every browse, whether it is now gone from every browse, and the resulting events.
    package mutating func set(
        _ copy: ServiceCopyKey, reportedBy browseTypes: Set<String>, at now: ContinuousClock.Instant = .now
    ) -> (isNewCopy: Bool, isCopyGone: Bool, events: [BackendEvent]) {
        let current = self.browseTypes(of: copy)
        var events: [BackendEvent] = []
        var isNew = false
        var isGone = false
        for type in browseTypes.subtracting(current).sorted() {
            let added = add(copy, browseType: type, at: now)
            isNew = isNew || added.isNewCopy
            events += added.events
        }
        for type in current.subtracting(browseTypes).sorted() {
            let removed = remove(copy, browseType: type, at: now)
            isGone = isGone || removed.isCopyGone
            events += removed.events
        }
        return (isNew, isGone, events)
    }

    /// Records that `browseType` reported `copy`. Returns whether the copy is new to every
    /// browse (so a resolver should be started for it) and the resulting events.
    package mutating func add(
        _ copy: ServiceCopyKey, browseType: String, at now: ContinuousClock.Instant = .now
    ) -> (isNewCopy: Bool, events: [BackendEvent]) {
        var instance = instances[copy.service] ?? Instance()
        let c = Copy(copy)
        let isNew = !instance.copies.contains(c)
        let isNewToBrowse = instance.browses[browseType, default: []].insert(c).inserted
        if isNew { pending.insert(copy) }
        let events: [BackendEvent] = isNewToBrowse ? [.copyAdded(copy, browseType: browseType)] : []
        return (isNew, events + commit(instance, for: copy.service, at: now))
    }

    /// Records that `browseType` no longer reports `copy`. Returns whether the copy is now gone
    /// from every browse (so its resolver should be freed) and the resulting events.
    package mutating func remove(
        _ copy: ServiceCopyKey, browseType: String, at now: ContinuousClock.Instant = .now
    ) -> (isCopyGone: Bool, events: [BackendEvent]) {
        guard var instance = instances[copy.service] else { return (false, []) }
        let c = Copy(copy)
        guard instance.browses[browseType]?.remove(c) != nil else { return (false, []) }
        if instance.browses[browseType]?.isEmpty == true { instance.browses[browseType] = nil }
        let gone = !instance.copies.contains(c)
        if gone {
            instance.resolutions[c] = nil
            instance.failed.remove(c)
            instance.partial.remove(c)
            instance.leftToOthers.remove(c)
            pending.remove(copy)
        }
        return (gone, commit(instance, for: copy.service, at: now))
    }

    /// Records a resolution (first or changed) of `copy`. `stillAsking` says the stack is still
    /// asking for more of its addresses (another family's): the copy counts as resolved, but the
    /// instance's first report waits for the rest (at most ``hold``) as it does for
    /// copies still resolving; a later resolution, or ``addressesComplete(_:at:)``, ends that.
    package mutating func resolved(
        _ copy: ServiceCopyKey, _ resolution: ServiceResolution, stillAsking: Bool = false,
        at now: ContinuousClock.Instant = .now
    ) -> [BackendEvent] {
        guard var instance = instances[copy.service] else { return [] }
        let c = Copy(copy)
        guard instance.copies.contains(c) else { return [] }
        sequence += 1
        instance.resolutions[c] = (sequence, resolution)
        instance.failed.remove(c)
        instance.leftToOthers.remove(c)
        if stillAsking { instance.partial.insert(c) } else { instance.partial.remove(c) }
        pending.remove(copy)
        return commit(instance, for: copy.service, at: now)
    }

    /// Records that the stack asks for no more of `copy`'s addresses (the other family's query
    /// ended without an answer): a first report held for them is released.
    package mutating func addressesComplete(_ copy: ServiceCopyKey, at now: ContinuousClock.Instant = .now) -> [BackendEvent] {
        guard var instance = instances[copy.service], instance.partial.remove(Copy(copy)) != nil else { return [] }
        return commit(instance, for: copy.service, at: now)
    }

    /// Records that resolving `copy` failed; the copy stays known but adds nothing.
    package mutating func resolveFailed(
        _ copy: ServiceCopyKey, _ error: DiscoveryError, at now: ContinuousClock.Instant = .now
    ) -> [BackendEvent] {
        guard var instance = instances[copy.service] else { return [] }
        let c = Copy(copy)
        guard instance.copies.contains(c) else { return [] }
        instance.failed.insert(c)
        instance.partial.remove(c)
        pending.remove(copy)
        return [.resolveFailed(copy.service, error)] + commit(instance, for: copy.service, at: now)
    }

    /// Records that the stack does not resolve `copy`, because another source resolved its
    /// service: the copy stays known (its browses) but is not pending and adds nothing.
    package mutating func leaveToOthers(_ copy: ServiceCopyKey, at now: ContinuousClock.Instant = .now) -> [BackendEvent] {
        guard var instance = instances[copy.service] else { return [] }
        let c = Copy(copy)
        guard instance.copies.contains(c), instance.resolutions[c] == nil else { return [] }
        instance.leftToOthers.insert(c)
        pending.remove(copy)
        return commit(instance, for: copy.service, at: now)
    }

    /// Records that the stack resolves `copy` after all (it had left it to another source,
    /// which no longer resolves it): the copy is pending again.
    package mutating func takeBack(_ copy: ServiceCopyKey) {
        guard var instance = instances[copy.service], instance.leftToOthers.remove(Copy(copy)) != nil else { return }
        store(instance, for: copy.service)
        pending.insert(copy)
    }

    /// The copies the stack left to another source (``leaveToOthers(_:at:)``), of `services`
    /// only when given, in key order.
    package func copiesLeftToOthers(of services: Set<ServiceKey>? = nil) -> [ServiceCopyKey] {
        instances.keys.sorted().filter { services?.contains($0) ?? true }.flatMap { key in
            (instances[key]?.leftToOthers ?? []).sorted { ($0.interfaceIndex, $0.transport == .ipv6 ? 1 : 0) < ($1.interfaceIndex, $1.transport == .ipv6 ? 1 : 0) }
                .map { ServiceCopyKey(service: key, interfaceIndex: $0.interfaceIndex, transport: $0.transport) }
        }
    }

    /// Whether the stack left `copy` to another source (``leaveToOthers(_:at:)``).
    package func isLeftToOthers(_ copy: ServiceCopyKey) -> Bool {
        instances[copy.service]?.leftToOthers.contains(Copy(copy)) ?? false
    }

    /// Reports the held first reports whose wait is over at `now`.
    package mutating func releaseHeld(at now: ContinuousClock.Instant = .now) -> [BackendEvent] {
        var events: [BackendEvent] = []
        for key in held.sorted() {
            guard let instance = instances[key], let release = releaseTime(of: instance), release <= now else { continue }
            events += commit(instance, for: key, at: now)
        }
        return events
    }

    /// Forgets everything (the stack went away) and reports every known service removed.
    package mutating func removeAll() -> [BackendEvent] {
        let events = services.map { BackendEvent.removed($0) }
        instances = [:]
        pending = []
        held = []
        heldResolved = []
        return events
    }

    private mutating func commit(_ instance: Instance, for key: ServiceKey, at now: ContinuousClock.Instant) -> [BackendEvent] {
        var instance = instance
        let merged = Self.merge(instance, key: key)
        var events: [BackendEvent] = []
        switch (instance.reported, merged) {
        case (nil, let new?):
            let since = instance.heldSince ?? now
            instance.heldSince = since
            if let release = releaseTime(of: instance), now < release {
                // Held: other copies may still come.
            } else {
                instance.heldSince = nil
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
        default:
            break
        }
        store(instance, for: key)
        return events
    }

    /// Keeps `instance` (forgets it once it has no copy), and whether its first report is held.
    private mutating func store(_ instance: Instance, for key: ServiceKey) {
        let isKept = !instance.copies.isEmpty
        instances[key] = isKept ? instance : nil
        if instance.heldSince != nil, isKept { held.insert(key) } else { held.remove(key) }
        if held.contains(key), !instance.hasUnresolvedCopies { heldResolved.insert(key) } else { heldResolved.remove(key) }
    }

    /// When a held first report is due: after ``hold`` while a copy is still
    /// resolving, after the grace while fewer copies than expected are known, else at once.
    private func releaseTime(of instance: Instance) -> ContinuousClock.Instant? {
        guard let since = instance.heldSince else { return nil }
        if instance.hasPendingCopies { return since + hold }
        if instance.copies.count < expectedCopies { return since + grace }
        return since
    }

    private static func merge(_ instance: Instance, key: ServiceKey) -> DiscoveredService? {
        let live = instance.copies
        let resolved = instance.resolutions.filter { live.contains($0.key) }
        guard let newest = resolved.values.max(by: { $0.sequence < $1.sequence })?.resolution else { return nil }
        var addresses: [ServiceAddress] = []
        for (_, entry) in resolved where entry.resolution.hostName == newest.hostName {
            for address in entry.resolution.addresses where !addresses.contains(address) { addresses.append(address) }
        }
        // IPv4 first, then by interface and text; each address's text is made once, not per
        // comparison.
        addresses = addresses.map { (key: ($0.family == .ipv4 ? 0 : 1, $0.interfaceIndex ?? 0, $0.address), address: $0) }
            .sorted { $0.key < $1.key }.map(\.address)
        let service = ResolvedService(
            instanceName: key.name, serviceType: key.type, domain: key.domain, hostName: newest.hostName,
            port: newest.port, addresses: addresses, txt: newest.txt,
            knownHost: newest.knownHost ?? resolved.values.sorted { $0.sequence > $1.sequence }.lazy.compactMap(\.resolution.knownHost).first)
        return DiscoveredService(service: service, browseTypes: Set(instance.browses.keys))
    }
}
