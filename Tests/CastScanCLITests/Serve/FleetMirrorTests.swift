import CastDiscovery
@testable import CastScanCLI
import Foundation
import Testing

/// The fleet follows the manager's list by its numbered changes: always equal to it, gaps found
/// by generation and closed with the list taken whole.
@Suite struct FleetMirrorTests {
    private static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A seeded generator (the library's JitterGenerator, SplitMix64).
    typealias Generator = JitterGenerator

    static func event(_ rng: inout Generator) -> BackendEvent {
        let number = Int.random(in: 0..<120, using: &rng)
        let device = FleetTests.device(
            number, name: "Room \(Int.random(in: 0..<500, using: &rng))", busy: Bool.random(using: &rng))
        let service = DiscoveredService(
            service: ResolvedService(
                instanceName: device.instanceName, hostName: device.hostName, port: device.port,
                addresses: device.addresses,
                txt: device.txt),
            browseTypes: ["_googlecast._tcp"])
        return Int.random(in: 0..<10, using: &rng) < 3 ? .removed(service) : .updated(service)
    }

    @Test("applying the numbered changes keeps the fleet equal to the list", arguments: [UInt64(1), 7, 99])
    func staysEqual(seed: UInt64) {
        var rng = Generator(seed: seed)
        var list = DeviceList()
        var fleet = Fleet(
            backend: "test", reason: "test", started: Self.start, forgetAfter: .seconds(600), goneLimit: 50)
        for step in 0..<1500 {
            let changes = list.apply(Self.event(&rng))
            let first = list.generation - changes.count + 1
            let now = Self.start + Double(step)
            for (offset, change) in changes.enumerated() {
                guard fleet.apply(change, generation: first + offset, at: now) else {
                    Issue.record("seed \(seed) step \(step): \(change) refused")
                    return
                }
            }
            guard fleet.listed.map(\.device) == list.devices, fleet.generation == list.generation else {
                Issue.record("seed \(seed) step \(step): the fleet differs from the list")
                return
            }
            guard fleet.gone.count <= 50,
                fleet.gone.allSatisfy({ list.device(withUniqueID: $0.device.uniqueID) == nil })
            else {
                Issue.record("seed \(seed) step \(step): gone devices wrong")
                return
            }
        }
    }

    @Test("a change it already has is skipped; a gap is refused and the list taken whole closes it")
    func gapsAndRepeats() {
        var list = DeviceList()
        var fleet = Fleet(
            backend: "test", reason: "test", started: Self.start, forgetAfter: .seconds(600), goneLimit: 50)
        var rng = Generator(seed: 5)
        var numbered: [(DeviceListChange, Int)] = []
        while numbered.count < 6 {
            for change in list.apply(Self.event(&rng)) { numbered.append((change, list.generation)) }
        }
        // Generations are those of the list after each batch; renumber them one by one.
        let first = list.generation - numbered.count + 1
        numbered = numbered.enumerated().map { ($0.element.0, first + $0.offset) }
        let applied = fleet.apply(numbered[0].0, generation: numbered[0].1, at: Self.start)
        let repeated = fleet.apply(numbered[0].0, generation: numbered[0].1, at: Self.start)
        #expect(applied && repeated, "a repeat is skipped")
        #expect(fleet.generation == 1)
        let gap = fleet.apply(numbered[2].0, generation: numbered[2].1, at: Self.start)
        #expect(!gap, "a gap is refused")
        #expect(fleet.generation == 1)
        // The list taken whole, at its generation; the changes it holds are then skipped.
        fleet.list(list.devices, generation: list.generation, at: Self.start + 1)
        let held = fleet.apply(numbered[5].0, generation: numbered[5].1, at: Self.start + 1)
        #expect(held)
        #expect(fleet.listed.map(\.device) == list.devices && fleet.generation == list.generation)
    }
}
