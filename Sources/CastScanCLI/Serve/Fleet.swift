import CastDiscovery
import CastDiscoveryReporting
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `cast-scan serve` knows of the network: the devices listed now, those that went (kept
/// for the forget-after time, so a scrape can see them go), and how discovery is doing.
/// Owned by ``FleetMonitor``; everything a page or a scrape shows is read from a copy.
///
/// The listed devices mirror the discovery manager's list by its changes (``apply(_:generation:at:)``),
/// each one generation after the last; a gap, or a list the manager gives whole (at the start,
/// or after missed events), is taken with ``list(_:generation:at:)``.
package struct Fleet: Sendable {
    /// What the members' series depend on: the list generation mirrored, and how many changes
    /// came from elsewhere (a device forgotten, a list taken whole). Equal revisions, equal
    /// members.
    struct Revision: Hashable, Sendable {
        var generation = 0
        var unnumbered = 0
    }

    /// One device, listed or gone.
    struct Member: Sendable {
        var device: CastDevice
        /// When this process first listed it.
        var firstSeen: Date
        /// When it was listed this time (after it last came back).
        var listedSince: Date
        /// When it went; nil while it is listed.
        var goneAt: Date?

        /// When it was last listed: now while it is, else when it went.
        func lastSeen(at now: Date) -> Date { goneAt ?? now }
    }

    /// The backend serving discovery and why it was chosen.
    var backend: String
    var backendReason: String
    /// When serving began.
    let started: Date
    /// The backend's last state; nil before it said one.
    package var backendState: BackendState?
    /// Why discovery stopped, when it did.
    var stopped: String?
    /// The devices by unique ID.
    private(set) var members: [String: Member] = [:]
    /// The listed devices' unique IDs, in the discovery manager's order.
    private(set) var order: [String] = []
    /// How long a device that went is kept (as `up 0`).
    let forgetAfter: Duration
    /// The most devices that went kept at once; the longest gone are forgotten first.
    let goneLimit: Int
    /// The backend's counters, when it keeps them.
    var statistics: BackendStatistics?
    /// Whether the discovery manager's first scan has ended (``DiscoveryEvent/scanCompleted(_:)``).
    package var firstScanDone = false
    /// Events the fleet's reader missed (the discovery manager counted them).
    var missedEvents = 0
    /// The report spool's counts, with `--report`.
    var report: SpoolStatus?
    /// How many members went and are kept.
    private var goneCount = 0
    /// The members' revision; changes whenever ``members`` or ``order`` do.
    private(set) var revision = Revision()
    /// The generation of the manager's list that ``order`` mirrors.
    var generation: Int { revision.generation }

    package init(backend: String, reason: String, started: Date, forgetAfter: Duration, goneLimit: Int) {
        self.backend = backend
        backendReason = reason
        self.started = started
        self.forgetAfter = forgetAfter
        self.goneLimit = max(0, goneLimit)
    }

    /// Whether discovery runs: not stopped, and the backend running.
    var discoveryUp: Bool { stopped == nil && backendState == .running }

    /// Why the server is not ready (`/-/ready`): discovery is not up, or its first scan has not
    /// ended; nil once it is ready.
    var readinessProblem: String? {
        if let downReason { return downReason }
        return firstScanDone ? nil : "the first scan has not ended"
    }

    /// Why discovery is not up, in a few words; nil while it is.
    var downReason: String? {
        if let stopped { return "discovery stopped: \(stopped)" }
        switch backendState {
        case .running: return nil
        case nil, .connecting: return "the backend is starting"
        case .daemonLost: return "the backend's daemon went away; waiting for it to return"
        case .failed(let error): return "the backend failed: \(error)"
        }
    }

    /// The listed devices, in the discovery manager's order.
    var listed: [Member] { order.compactMap { members[$0] } }

    /// How many devices are listed.
    var listedCount: Int { order.count }

    /// The devices that went and are not forgotten yet, the latest gone first.
    var gone: [Member] {
        members.values.filter { $0.goneAt != nil }.sorted {
            ($0.goneAt!, $0.device.uniqueID) > ($1.goneAt!, $1.device.uniqueID)
        }
    }

    /// Takes the manager's list of `generation` (nil: the one mirrored) as what is listed now:
    /// new devices are added, listed ones updated, and the ones missing from it marked gone at
    /// `now`.
    package mutating func list(_ devices: [CastDevice], generation: Int? = nil, at now: Date) {
        var seen = Set<String>()
        var newOrder: [String] = []
        newOrder.reserveCapacity(devices.count)
        for device in devices {
            let id = device.uniqueID
            guard seen.insert(id).inserted else { continue }
            newOrder.append(id)
            listMember(device, at: now)
        }
        for id in order where !seen.contains(id) {
            members[id]?.goneAt = now
            goneCount += 1
        }
        order = newOrder
        revision.generation = generation ?? revision.generation
        revision.unnumbered += 1
        forget(at: now)
    }

    /// Applies one change of the manager's list that made `generation`, at `now`. Returns false,
    /// changing nothing, when the change does not follow the mirrored generation (a gap, or
    /// indices that do not fit): the caller takes the manager's list whole instead. A change
    /// the mirror already has (an older generation) is skipped.
    mutating func apply(_ change: DeviceListChange, generation: Int, at now: Date) -> Bool {
        guard generation > revision.generation else { return true }
        guard generation == revision.generation + 1 else { return false }
        let id = change.device.uniqueID
        switch change {
        case .inserted(let device, let index):
            guard (0...order.count).contains(index) else { return false }
            order.insert(id, at: index)
            listMember(device, at: now)
        case .updated(let device, let index):
            guard order.indices.contains(index), order[index] == id else { return false }
            members[id]?.device = device
        case .updatedAndMoved(let device, let from, let to):
            guard order.indices.contains(from), order[from] == id, order.indices.contains(to) else { return false }
            order.remove(at: from)
            order.insert(id, at: to)
            members[id]?.device = device
        case .removed(_, let index):
            guard order.indices.contains(index), order[index] == id else { return false }
            order.remove(at: index)
            if forgetAfter <= .zero || goneLimit == 0 {
                members[id] = nil
                revision.unnumbered += 1
            } else {
                members[id]?.goneAt = now
                goneCount += 1
            }
        }
        revision.generation = generation
        // The forget-after time is kept by the server's tick; the limit at once.
        if goneCount > goneLimit { forget(at: now) }
        return true
    }

    /// Lists `device`: a new member, or one that went and came back.
    private mutating func listMember(_ device: CastDevice, at now: Date) {
        guard var member = members[device.uniqueID] else {
            members[device.uniqueID] = Member(device: device, firstSeen: now, listedSince: now)
            return
        }
        member.device = device
        if member.goneAt != nil {
            member.goneAt = nil
            member.listedSince = now
            goneCount -= 1
        }
        members[device.uniqueID] = member
    }

    /// Forgets the devices gone longer than the forget-after time, and the longest gone past
    /// the limit of devices kept gone.
    mutating func forget(at now: Date) {
        let cutoff = now.addingTimeInterval(-forgetAfter.seconds)
        let gone = members.values.compactMap { member in member.goneAt.map { (member.device.uniqueID, $0) } }
        guard !gone.isEmpty else { return }
        var kept = 0
        for (id, goneAt) in gone.sorted(by: { ($0.1, $0.0) > ($1.1, $1.0) }) {
            if goneAt <= cutoff || forgetAfter <= .zero || kept >= goneLimit {
                members[id] = nil
                goneCount -= 1
                revision.unnumbered += 1
            } else {
                kept += 1
            }
        }
    }
}
