import CastDiscovery
import Testing

/// Random found/updated/removed sequences (with run restarts), with and without criteria and
/// address filters: replaying the changes on a mirror by their indices alone always gives the
/// list, and the list always equals a from-scratch model.
@Suite("DeviceList property")
struct DeviceListPropertyTests {
    typealias S = TestService

    /// A from-scratch model of what the list must show.
    struct Model {
        struct Entry {
            var service: DiscoveredService
            /// The device made from `service`, once: the model is checked after every step.
            var device: CastDevice?
            var sequence: Int
            var seen: Bool
            var carried: Set<String>
        }

        var criteria: DiscoveryCriteria
        var filter: DeviceFilter = .none
        var entries: [ServiceKey: Entry] = [:]
        var sequence = 0
        var sweepPending = false

        mutating func apply(_ event: BackendEvent) {
            switch event {
            case .found(let service), .updated(let service):
                sequence += 1
                entries[service.key] = Entry(
                    service: service, device: try? CastDevice(service: service.service, policy: .lenient),
                    sequence: sequence, seen: true, carried: entries[service.key]?.carried ?? [])
            case .removed(let service):
                entries[service.key] = nil
            case .allForNow(let browseType) where browseType == S.base && sweepPending:
                sweepPending = false
                entries = entries.filter(\.value.seen).mapValues { entry in
                    var entry = entry
                    entry.carried = []
                    return entry
                }
            default:
                break
            }
        }

        mutating func endRun() {
            entries = entries.mapValues { entry in
                var entry = entry
                entry.carried.formUnion(entry.service.browseTypes)
                entry.seen = false
                return entry
            }
            sweepPending = false
        }

        mutating func beginRun() { sweepPending = !entries.isEmpty }

        var devices: [CastDevice] {
            let subtypes = Set(criteria.browseTypes.dropFirst())
            let groups = Dictionary(grouping: entries.values) { $0.device?.uniqueID ?? "" }
            return groups.values.compactMap { group -> CastDevice? in
                // The newest instance whose addresses the filter keeps.
                let shown = group.sorted { $0.sequence > $1.sequence }.compactMap { $0.device.flatMap(filter.apply) }
                    .first
                guard let shown else { return nil }
                if !subtypes.isEmpty,
                    !group.contains(where: { !$0.service.browseTypes.union($0.carried).isDisjoint(with: subtypes) })
                {
                    return nil
                }
                return shown
            }.sorted(by: DeviceList.precedes)
        }
    }

    static let names = [
        "Kitchen", "kitchen", "KITCHEN", "Attic", "attic", "Zoo", "Äpfel", "Living Room", "Bedroom", "été",
    ]

    /// Addresses on two interfaces and of both families, link-local IPv6 among them.
    static let addressPool = [
        ServiceAddress("10.0.0.1", interfaceName: "eth0", interfaceIndex: 2)!,
        ServiceAddress("fd00::1", interfaceName: "eth0", interfaceIndex: 2)!,
        ServiceAddress("10.1.0.1", interfaceName: "eth1", interfaceIndex: 3)!,
        ServiceAddress("fe80::1%eth1", interfaceName: "eth1", interfaceIndex: 3)!,
    ]

    static let filters: [DeviceFilter] = [
        .none, DeviceFilter(families: [.ipv4]), DeviceFilter(families: [.ipv6]), DeviceFilter(interfaceName: "eth1"),
        DeviceFilter(interfaceName: "eth0", families: [.ipv6]),
    ]

    static func randomEvent(_ rng: inout SeededGenerator, known: [ServiceKey]) -> BackendEvent {
        let roll = Int.random(in: 0..<100, using: &rng)
        if roll < 30, let key = known.randomElement(using: &rng) {
            return .removed(S.make(key.name, id: S.uuid(0), name: "x"))
        }
        if roll < 33 { return .allForNow(browseType: S.base) }
        if roll < 35 { return .removed(S.make("unknown", id: S.uuid(99), name: "x")) }
        let idNumber = Int.random(in: 0..<8, using: &rng)
        // Two instance names per id; rarely, an instance reports another id.
        let instanceID = Int.random(in: 0..<20, using: &rng) == 0 ? Int.random(in: 0..<8, using: &rng) : idNumber
        let instance = "inst-\(instanceID)" + (Bool.random(using: &rng) ? "" : "-1")
        let browses: [Set<String>] = [[S.base], [S.base, S.dmr], [S.base, S.youTube], [S.dmr]]
        var service = S.make(
            instance, id: S.uuid(idNumber), name: names.randomElement(using: &rng)!,
            host: "h\(Int.random(in: 0..<3, using: &rng)).local", port: UInt16.random(in: 8009...8011, using: &rng),
            browse: browses.randomElement(using: &rng)!, status: Bool.random(using: &rng) ? "0" : "1")
        service.service.addresses = addressPool.filter { _ in Int.random(in: 0..<3, using: &rng) == 0 }
        return Bool.random(using: &rng) ? .found(service) : .updated(service)
    }

    @Test(
        "mirrors replaying the changes equal the list",
        arguments: [
            (UInt64(1), false, 0), (2, true, 0), (3, false, 1), (42, true, 2), (2024, false, 3), (77, true, 4),
            (5, false, 2), (6, false, 4),
        ])
    func mirror(seed: UInt64, withCriteria: Bool, filterNumber: Int) {
        var rng = SeededGenerator(seed: seed)
        let criteria: DiscoveryCriteria = withCriteria ? .defaultMediaReceiver : .all
        let filter = Self.filters[filterNumber]
        var list = DeviceList(criteria: criteria, filter: filter)
        var model = Model(criteria: criteria, filter: filter)
        var mirror: [CastDevice] = []
        var kinds: [String: Int] = [:]
        for step in 0..<4000 {
            if Int.random(in: 0..<200, using: &rng) == 0 {
                list.endRun()
                model.endRun()
                let had = list.beginRun()
                model.beginRun()
                #expect(had == !mirror.isEmpty)
                continue
            }
            let event = Self.randomEvent(&rng, known: Array(model.entries.keys).sorted())
            let changes = list.apply(event)
            model.apply(event)
            for change in changes {
                change.apply(to: &mirror)
                let kind =
                    switch change {
                    case .inserted: "inserted"
                    case .updated: "updated"
                    case .updatedAndMoved: "moved"
                    case .removed: "removed"
                    }
                kinds[kind, default: 0] += 1
            }
            guard mirror == list.devices else {
                Issue.record("seed \(seed) step \(step): mirror diverged after \(event)")
                return
            }
            guard list.devices == model.devices else {
                Issue.record("seed \(seed) step \(step): list differs from the model after \(event)")
                return
            }
            guard
                filter.keepsEverything
                    || list.devices.allSatisfy({ !$0.addresses.isEmpty && $0.addresses.allSatisfy(filter.allows) })
            else {
                Issue.record("seed \(seed) step \(step): a listed address does not pass \(filter)")
                return
            }
            guard zip(list.devices, list.devices.dropFirst()).allSatisfy({ DeviceList.precedes($0, $1) }) else {
                Issue.record("seed \(seed) step \(step): not strictly sorted")
                return
            }
        }
        // The generator must exercise every kind of change.
        #expect(kinds["inserted", default: 0] > 50)
        #expect(kinds["updated", default: 0] > 50)
        #expect(kinds["moved", default: 0] > 50)
        #expect(kinds["removed", default: 0] > 50)
    }
}
