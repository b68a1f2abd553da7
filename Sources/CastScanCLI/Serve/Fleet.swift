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
struct Fleet: Sendable {
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
    var backendState: BackendState?
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
    /// Events the fleet's reader missed (the discovery manager counted them).
    var missedEvents = 0
    /// The report spool's counts, with `--report`.
    var report: SpoolStatus?

    init(backend: String, reason: String, started: Date, forgetAfter: Duration, goneLimit: Int) {
        self.backend = backend
        backendReason = reason
        self.started = started
        self.forgetAfter = forgetAfter
        self.goneLimit = max(0, goneLimit)
    }

    /// Whether discovery runs: not stopped, and the backend running.
    var discoveryUp: Bool { stopped == nil && backendState == .running }

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
        members.values.filter { $0.goneAt != nil }.sorted { ($0.goneAt!, $0.device.uniqueID) > ($1.goneAt!, $1.device.uniqueID) }
    }

    /// Takes the manager's list as what is listed now: new devices are added, listed ones
    /// updated, and the ones missing from it marked gone at `now`.
    mutating func list(_ devices: [CastDevice], at now: Date) {
        var seen = Set<String>()
        var newOrder: [String] = []
        newOrder.reserveCapacity(devices.count)
        for device in devices {
            let id = device.uniqueID
            guard seen.insert(id).inserted else { continue }
            newOrder.append(id)
            if var member = members[id] {
                member.device = device
                if member.goneAt != nil {
                    member.goneAt = nil
                    member.listedSince = now
                }
                members[id] = member
            } else {
                members[id] = Member(device: device, firstSeen: now, listedSince: now)
            }
        }
        for id in order where !seen.contains(id) { members[id]?.goneAt = now }
        order = newOrder
        forget(at: now)
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
            } else {
                kept += 1
            }
        }
    }
}
