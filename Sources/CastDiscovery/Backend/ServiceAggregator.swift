/// Merges what a DNS-SD daemon reports per interface, per IP protocol and per browse into one
/// service per instance, and says what changed as ``BackendEvent``s.
///
/// An instance is found when its first copy resolves, updated whenever the merged result
/// changes, and removed when its last copy is gone from every browse. The merged result takes
/// host, port and TXT from the newest resolution, and the addresses of every copy that
/// resolved to that same host.
public struct ServiceAggregator: Sendable {
    private struct Instance: Sendable {
        var browses: [String: Set<Copy>] = [:]
        var resolutions: [Copy: (sequence: Int, resolution: ServiceResolution)] = [:]
        var failed: Set<Copy> = []
        var reported: DiscoveredService?

        var copies: Set<Copy> { browses.values.reduce(into: []) { $0.formUnion($1) } }
    }

    private struct Copy: Sendable, Hashable {
        var interfaceIndex: Int32
        var transport: ServiceAddress.Family
    }

    private var instances: [ServiceKey: Instance] = [:]
    private var sequence = 0
    private var pending: Set<ServiceCopyKey> = []

    /// Creates an empty aggregator.
    public init() {}

    /// The services currently reported (found and not removed), in key order.
    public var services: [DiscoveredService] {
        instances.keys.sorted().compactMap { instances[$0]?.reported }
    }

    /// How many copies are waiting for their first resolution (neither resolved nor failed).
    public var pendingResolves: Int { pending.count }

    /// The latest resolution of `copy`, if it has resolved.
    public func resolution(of copy: ServiceCopyKey) -> ServiceResolution? {
        instances[copy.service]?.resolutions[Copy(interfaceIndex: copy.interfaceIndex, transport: copy.transport)]?.resolution
    }

    /// Records that `browseType` reported `copy`. Returns whether the copy is new to every
    /// browse (so a resolver should be started for it) and the resulting events.
    public mutating func add(_ copy: ServiceCopyKey, browseType: String) -> (isNewCopy: Bool, events: [BackendEvent]) {
        var instance = instances[copy.service] ?? Instance()
        let c = Copy(interfaceIndex: copy.interfaceIndex, transport: copy.transport)
        let isNew = !instance.copies.contains(c)
        instance.browses[browseType, default: []].insert(c)
        if isNew { pending.insert(copy) }
        return (isNew, commit(instance, for: copy.service))
    }

    /// Records that `browseType` no longer reports `copy`. Returns whether the copy is now gone
    /// from every browse (so its resolver should be freed) and the resulting events.
    public mutating func remove(_ copy: ServiceCopyKey, browseType: String) -> (isCopyGone: Bool, events: [BackendEvent]) {
        guard var instance = instances[copy.service] else { return (false, []) }
        let c = Copy(interfaceIndex: copy.interfaceIndex, transport: copy.transport)
        guard instance.browses[browseType]?.remove(c) != nil else { return (false, []) }
        if instance.browses[browseType]?.isEmpty == true { instance.browses[browseType] = nil }
        let gone = !instance.copies.contains(c)
        if gone {
            instance.resolutions[c] = nil
            instance.failed.remove(c)
            pending.remove(copy)
        }
        return (gone, commit(instance, for: copy.service))
    }

    /// Records a resolution (first or changed) of `copy`.
    public mutating func resolved(_ copy: ServiceCopyKey, _ resolution: ServiceResolution) -> [BackendEvent] {
        guard var instance = instances[copy.service] else { return [] }
        let c = Copy(interfaceIndex: copy.interfaceIndex, transport: copy.transport)
        guard instance.copies.contains(c) else { return [] }
        sequence += 1
        instance.resolutions[c] = (sequence, resolution)
        instance.failed.remove(c)
        pending.remove(copy)
        return commit(instance, for: copy.service)
    }

    /// Records that resolving `copy` failed; the copy stays known but adds nothing.
    public mutating func resolveFailed(_ copy: ServiceCopyKey, _ error: DiscoveryError) -> [BackendEvent] {
        guard var instance = instances[copy.service] else { return [] }
        let c = Copy(interfaceIndex: copy.interfaceIndex, transport: copy.transport)
        guard instance.copies.contains(c) else { return [] }
        instance.failed.insert(c)
        instances[copy.service] = instance
        pending.remove(copy)
        return [.resolveFailed(copy.service, error)]
    }

    /// Forgets everything (the daemon went away) and reports every known service removed.
    public mutating func removeAll() -> [BackendEvent] {
        let events = services.map { BackendEvent.removed($0) }
        instances = [:]
        pending = []
        return events
    }

    private mutating func commit(_ instance: Instance, for key: ServiceKey) -> [BackendEvent] {
        var instance = instance
        let merged = Self.merge(instance, key: key)
        var events: [BackendEvent] = []
        switch (instance.reported, merged) {
        case (nil, let new?):
            events.append(.found(new))
        case (let old?, let new?) where old != new:
            events.append(.updated(new))
        case (let old?, nil):
            events.append(.removed(old))
        default:
            break
        }
        instance.reported = merged
        instances[key] = instance.copies.isEmpty ? nil : instance
        return events
    }

    private static func merge(_ instance: Instance, key: ServiceKey) -> DiscoveredService? {
        let live = instance.copies
        let resolved = instance.resolutions.filter { live.contains($0.key) }
        guard let newest = resolved.values.max(by: { $0.sequence < $1.sequence })?.resolution else { return nil }
        var addresses: [ServiceAddress] = []
        for (_, entry) in resolved where entry.resolution.hostName == newest.hostName {
            if let address = entry.resolution.address, !addresses.contains(address) { addresses.append(address) }
        }
        addresses.sort { a, b in
            (a.family == .ipv4 ? 0 : 1, a.interfaceIndex ?? 0, a.address)
                < (b.family == .ipv4 ? 0 : 1, b.interfaceIndex ?? 0, b.address)
        }
        let service = ResolvedService(
            instanceName: key.name, serviceType: key.type, domain: key.domain, hostName: newest.hostName,
            port: newest.port, addresses: addresses, txt: newest.txt)
        return DiscoveredService(service: service, browseTypes: Set(instance.browses.keys))
    }
}
