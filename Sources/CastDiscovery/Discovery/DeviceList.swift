/// The Cast devices a discovery manager lists: one per Cast id, filtered by criteria and by a
/// ``DeviceFilter``, sorted by friendly name, and the changes each backend event makes to it.
///
/// - One device per ``CastDevice/uniqueID``, whatever the number of instance names, interfaces,
///   address families and browses it arrives through. The device is made (leniently) from the
///   newest answer of any of its instances, so its addresses, host and port follow the newest
///   answer. It is gone only when its last instance is removed.
/// - With criteria that have application IDs or namespaces, a device is listed only while at
///   least one of its instances is reported by one of the criteria's subtype browses; with
///   ``DiscoveryCriteria/all``, every device is listed. Browse types compare case-insensitively.
/// - The filter keeps only some addresses (one interface, some families): a device is listed
///   with the addresses it keeps, made from its newest instance that keeps any, and not listed
///   while none does. Every index a change carries is an index of this filtered list.
/// - Order (see ``precedes(_:_:)``): friendly names lower-cased with Unicode's default case
///   mapping (no locale) and compared as Swift strings (Unicode scalar order of the canonical
///   form); then the friendly names as they are; then the unique ids. The order is total.
/// - Runs: ``endRun()`` keeps every device as "from the last run"; ``beginRun()`` says whether
///   any exist. During the next run such a device stays listed (matching by the union of its old
///   and new browses) until the first all-for-now of the base browse type, which removes the
///   instances not reported again in the new run.
/// - Generations: each change advances ``generation`` by one, so the changes ``apply(_:)``
///   returns made generations `generation - changes.count + 1` through `generation`.
///   ``snapshot`` is the list at its generation; taking one costs nothing, and no write after it
///   copies the list: the devices are kept in chunks of at most 64 and the unique-id index in
///   64 shards, which snapshots share copy-on-write one by one, so a write copies one chunk, one
///   shard and the two tables of references.
public struct DeviceList: Sendable {
    private struct Entry: Sendable {
        var service: DiscoveredService
        var device: CastDevice
        var sequence: Int
        var seenThisRun: Bool
        var carriedBrowseTypes: Set<String>
    }

    /// The criteria devices are filtered by.
    public let criteria: DiscoveryCriteria
    /// The addresses shown; a device with none left is not listed.
    public let filter: DeviceFilter
    /// How many changes the list has made; each change advances it by one.
    public private(set) var generation = 0

    private let subtypeBrowseTypes: Set<String>
    private var entries: [ServiceKey: Entry] = [:]
    private var keysByID: [String: Set<ServiceKey>] = [:]
    private var rows = DeviceRows()
    private var listed = DeviceIndex()
    private var sequence = 0
    private var sweepPending = false

    /// Creates an empty list of the devices that match `criteria`, with the addresses `filter`
    /// keeps.
    public init(criteria: DiscoveryCriteria = .all, filter: DeviceFilter = .none) {
        self.criteria = criteria
        self.filter = filter
        subtypeBrowseTypes = Set(
            criteria.browseTypes.map { $0.lowercased() }
                .filter { $0 != DiscoveryCriteria.serviceType.lowercased() })
    }

    /// The number of listed devices.
    public var count: Int { rows.count }

    /// The listed devices, in order (a new array).
    public var devices: [CastDevice] { rows.devices }

    /// The list as it is now, at ``generation``; costs nothing, and the next write does not copy
    /// the list.
    public var snapshot: DeviceListSnapshot {
        DeviceListSnapshot(generation: generation, rows: rows, index: listed)
    }

    /// The listed device with `uniqueID` (`googlecast:<id>`; the id may be written in any form
    /// ``CastDeviceID`` accepts, or without the `googlecast:` prefix).
    public func device(withUniqueID uniqueID: String) -> CastDevice? {
        listed[Self.normalizedUniqueID(uniqueID)]?.device
    }

    /// The index of the listed device with `uniqueID`, in the forms ``device(withUniqueID:)``
    /// accepts.
    public func index(ofUniqueID uniqueID: String) -> Int? {
        listed[Self.normalizedUniqueID(uniqueID)].flatMap(index(of:))
    }

    /// Applies one backend event and returns the changes it made to ``devices``, in order.
    ///
    /// `found`, `updated` and `removed` change the instance they carry (a `found` of a known
    /// instance counts as an update, an `updated` of an unknown one as a find, a `removed` of an
    /// unknown one is ignored). The base browse type's `allForNow` ends a pending run start
    /// (see the type's description). Other events change nothing.
    public mutating func apply(_ event: BackendEvent) -> [DeviceListChange] {
        switch event {
        case .found(let service), .updated(let service):
            return upsert(service)
        case .removed(let service):
            guard let old = entries.removeValue(forKey: service.key) else { return [] }
            keysByID[old.device.uniqueID]?.remove(service.key)
            return recompute([old.device.uniqueID])
        case .allForNow(let browseType):
            guard sweepPending, browseType.lowercased() == DiscoveryCriteria.serviceType.lowercased() else {
                return []
            }
            return sweep()
        case .stateChanged, .cacheExhausted, .resolveFailed, .resolvesPending, .browseStarted, .copyAdded, .statistics,
            .sourceProgress,
            .copyRemoved, .copyResolved, .copyAddressesComplete, .copyFailed, .copyLimit:
            return []
        }
    }

    /// Marks every device as kept from a run that ended; it stays listed.
    public mutating func endRun() {
        for key in entries.keys {
            guard var entry = entries[key] else { continue }
            entry.carriedBrowseTypes.formUnion(entry.service.browseTypes)
            entry.seenThisRun = false
            entries[key] = entry
        }
        sweepPending = false
    }

    /// Starts a run; returns whether devices kept from the last run are listed.
    public mutating func beginRun() -> Bool {
        sweepPending = !entries.isEmpty
        return rows.count > 0
    }

    /// Whether `a` sorts before `b` in the list (see the type's description).
    public static func precedes(_ a: CastDevice, _ b: CastDevice) -> Bool {
        DeviceRow(a).precedes(DeviceRow(b))
    }

    /// `googlecast:<normalized id>` for a unique id or a bare device id in any accepted form.
    public static func normalizedUniqueID(_ text: String) -> String {
        let prefix = CastDevice.category + ":"
        let id = text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
        return prefix + CastDeviceID(id).normalized
    }

    // MARK: - Changes

    private mutating func upsert(_ service: DiscoveredService) -> [DeviceListChange] {
        guard let device = try? CastDevice(service: service.service, policy: .lenient) else { return [] }
        let key = service.key
        let old = entries[key]
        sequence += 1
        entries[key] = Entry(
            service: service, device: device, sequence: sequence, seenThisRun: true,
            carriedBrowseTypes: old?.carriedBrowseTypes ?? [])
        var affected: [String] = []
        if let old, old.device.uniqueID != device.uniqueID {
            keysByID[old.device.uniqueID]?.remove(key)
            affected.append(old.device.uniqueID)
        }
        keysByID[device.uniqueID, default: []].insert(key)
        affected.append(device.uniqueID)
        return recompute(affected)
    }

    private mutating func sweep() -> [DeviceListChange] {
        sweepPending = false
        var affected: Set<String> = []
        for (key, entry) in entries where !entry.seenThisRun || !entry.carriedBrowseTypes.isEmpty {
            affected.insert(entry.device.uniqueID)
            if entry.seenThisRun {
                entries[key]?.carriedBrowseTypes = []
            } else {
                entries[key] = nil
                keysByID[entry.device.uniqueID]?.remove(key)
            }
        }
        return recompute(affected.sorted())
    }

    /// What the list should show for `id` now: the newest instance's device as the filter shows
    /// it (the newest whose addresses the filter keeps), if it matches the criteria.
    private func target(for id: String) -> CastDevice? {
        let instances = (keysByID[id] ?? []).compactMap { entries[$0] }
        guard
            let shown = instances.sorted(by: { $0.sequence > $1.sequence }).lazy.compactMap({
                filter.apply(to: $0.device)
            }).first
        else { return nil }
        if !subtypeBrowseTypes.isEmpty {
            let matches = instances.contains { entry in
                entry.service.browseTypes.union(entry.carriedBrowseTypes)
                    .contains { subtypeBrowseTypes.contains($0.lowercased()) }
            }
            guard matches else { return nil }
        }
        return shown
    }

    private mutating func recompute(_ ids: [String]) -> [DeviceListChange] {
        var changes: [DeviceListChange] = []
        for id in ids {
            if keysByID[id]?.isEmpty == true { keysByID[id] = nil }
            let new = target(for: id)
            let old = listed[id]
            switch (old, new) {
            case (nil, nil):
                continue
            case (nil, let new?):
                let row = DeviceRow(new)
                let index = rows.insertionIndex(for: row)
                rows.insert(row, at: index)
                listed[id] = row
                changes.append(.inserted(new, at: index))
            case (let old?, nil):
                guard let index = index(of: old) else { continue }
                rows.remove(at: index)
                listed[id] = nil
                changes.append(.removed(old.device, at: index))
            case (let old?, let new?):
                guard old.device != new, let from = index(of: old) else { continue }
                let row = DeviceRow(new)
                listed[id] = row
                if let to = stayingIndex(of: row, at: from) {
                    rows.replace(at: to, with: row)
                    changes.append(.updated(new, at: to))
                } else {
                    rows.remove(at: from)
                    let to = rows.insertionIndex(for: row)
                    rows.insert(row, at: to)
                    changes.append(from == to ? .updated(new, at: to) : .updatedAndMoved(new, from: from, to: to))
                }
            }
        }
        generation += changes.count
        return changes
    }

    /// `index` when `row` can replace the row there and keep the order (it still sorts after
    /// the row before and before the row after); nil when it must move.
    private func stayingIndex(of row: DeviceRow, at index: Int) -> Int? {
        if let before = rows.row(at: index - 1), !before.precedes(row) { return nil }
        if let after = rows.row(at: index + 1), !row.precedes(after) { return nil }
        return index
    }

    /// The index of the listed row `row`.
    private func index(of row: DeviceRow) -> Int? {
        let index = rows.insertionIndex(for: row)
        guard let found = rows.row(at: index), found.id == row.id else { return nil }
        return index
    }
}
