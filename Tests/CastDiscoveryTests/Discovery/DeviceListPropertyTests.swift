import CastDiscovery
import Testing

/// Random found/updated/removed sequences (with run restarts): replaying the changes on a mirror
/// always gives the list, and the list always equals a from-scratch model.
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
                let newest = group.max { $0.sequence < $1.sequence }!
                if !subtypes.isEmpty,
                    !group.contains(where: { !$0.service.browseTypes.union($0.carried).isDisjoint(with: subtypes) })
                {
                    return nil
                }
                return newest.device
            }.sorted(by: DeviceList.precedes)
        }
    }

    static let names = ["Kitchen", "kitchen", "KITCHEN", "Attic", "attic", "Zoo", "Äpfel", "Living Room", "Bedroom", "été"]

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
        let service = S.make(
            instance, id: S.uuid(idNumber), name: names.randomElement(using: &rng)!,
            host: "h\(Int.random(in: 0..<3, using: &rng)).local", port: UInt16.random(in: 8009...8011, using: &rng),
            browse: browses.randomElement(using: &rng)!, status: Bool.random(using: &rng) ? "0" : "1")
        return Bool.random(using: &rng) ? .found(service) : .updated(service)
    }

    @Test("mirrors replaying the changes equal the list", arguments: [
        (UInt64(1), false), (2, true), (3, false), (42, true), (2024, false), (77, true),
    ])
    func mirror(seed: UInt64, withCriteria: Bool) {
        var rng = SeededGenerator(seed: seed)
        let criteria: DiscoveryCriteria = withCriteria ? .defaultMediaReceiver : .all
        var list = DeviceList(criteria: criteria)
        var model = Model(criteria: criteria)
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
                let kind = switch change {
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
