import CastDiscovery
import Testing

/// Generations and snapshots of a ``DeviceList``: one generation per change, snapshots that no
/// later write changes, and changes that rebuild the list when applied to a copy, over lists
/// large enough to span many storage chunks.
@Suite("DeviceList generations and snapshots")
struct DeviceListGenerationTests {
    typealias S = TestService

    /// A found, updated or removed event for one of `ids` devices, with names that sort anywhere.
    static func randomEvent(_ rng: inout SeededGenerator, ids: Int) -> BackendEvent {
        let number = Int.random(in: 0..<ids, using: &rng)
        let service = S.make(
            "inst-\(number)", id: S.uuid(number), name: "Room \(Int.random(in: 0..<1000, using: &rng))",
            status: Bool.random(using: &rng) ? "0" : "1")
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<3: return .removed(service)
        case 3..<6: return .updated(service)
        default: return .found(service)
        }
    }

    @Test("each change advances the generation by one; the snapshot says the generation it shows")
    func generationsAreConsecutive() {
        var list = DeviceList()
        #expect(list.generation == 0 && list.snapshot.generation == 0)
        var expected = 0
        let a = list.apply(.found(S.make("a", id: S.uuid(1), name: "Alpha")))
        expected += a.count
        #expect(a.count == 1 && list.generation == expected)
        let nothing = list.apply(.found(S.make("a", id: S.uuid(1), name: "Alpha")))
        #expect(nothing.isEmpty && list.generation == expected, "no change, no generation")
        // An instance that reports another id: a removal and an insertion, two generations.
        _ = list.apply(.found(S.make("b", id: S.uuid(2), name: "Beta")))
        expected += 1
        let moved = list.apply(.updated(S.make("b", id: S.uuid(3), name: "Gamma")))
        expected += moved.count
        #expect(moved.count == 2 && list.generation == expected)
        #expect(list.snapshot.generation == list.generation)
    }

    @Test("a snapshot taken before a write is unchanged after it, in every chunk", arguments: [1, 63, 64, 65, 300])
    func snapshotsDoNotChange(size: Int) {
        var list = DeviceList()
        for number in 0..<size {
            _ = list.apply(.found(S.make("i\(number)", id: S.uuid(number), name: "Device \(1000 + number * 7 % size)")))
        }
        var rng = SeededGenerator(seed: UInt64(size))
        for _ in 0..<200 {
            let before = list.snapshot
            let devices = before.devices
            _ = list.apply(Self.randomEvent(&rng, ids: size + 20))
            #expect(before.devices == devices)
            #expect(before.count == devices.count)
            let index = devices.isEmpty ? 0 : Int.random(in: 0..<devices.count, using: &rng)
            #expect(before.device(at: index) == devices.indices.contains(index).then(devices[index]))
            if let device = devices.first {
                #expect(before.device(withUniqueID: device.uniqueID) == device)
            }
        }
    }

    @Test(
        "applying the published changes to a copy always equals the list; snapshots agree with it",
        arguments: [
            (UInt64(1), 40), (2, 150), (3, 400), (2024, 700),
        ])
    func changesRebuildTheList(seed: UInt64, ids: Int) {
        var rng = SeededGenerator(seed: seed)
        var list = DeviceList()
        var copy: [CastDevice] = []
        var copyGeneration = 0
        for step in 0..<3000 {
            let event = Self.randomEvent(&rng, ids: ids)
            let before = list.generation
            let changes = list.apply(event)
            guard list.generation == before + changes.count else {
                Issue.record(
                    "seed \(seed) step \(step): generation \(list.generation) after \(changes.count) changes from \(before)"
                )
                return
            }
            for change in changes {
                change.apply(to: &copy)
                copyGeneration += 1
            }
            let snapshot = list.snapshot
            guard copy == snapshot.devices, copy == list.devices, copyGeneration == snapshot.generation else {
                Issue.record("seed \(seed) step \(step): the copy diverged after \(event)")
                return
            }
            if !copy.isEmpty {
                let index = Int.random(in: 0..<copy.count, using: &rng)
                guard snapshot.device(at: index) == copy[index],
                    snapshot.device(withUniqueID: copy[index].uniqueID) == copy[index],
                    list.index(ofUniqueID: copy[index].uniqueID) == index
                else {
                    Issue.record("seed \(seed) step \(step): lookups disagree at \(index)")
                    return
                }
            }
        }
        #expect(copy.count > min(ids / 3, 64), "the list must grow past one chunk")
    }
}

extension Bool {
    /// `value` when true, else nil.
    fileprivate func then<T>(_ value: @autoclosure () -> T) -> T? { self ? value() : nil }
}
