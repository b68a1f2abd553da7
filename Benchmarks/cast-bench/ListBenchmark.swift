import CMallocCounter
import CastDiscovery
import Foundation

/// `cast-bench list [--sizes 50,500,5000] [--count N] [--out FILE]`: what one change to a
/// `DeviceList` costs, with a snapshot taken after each (as the discovery manager publishes one
/// after each batch).
///
/// For each size, a list of that many devices, then N of each change, each timed alone: an
/// update (a device's TXT status flips; it keeps its place), an insert (a new device at a
/// pseudo-random place) and the removal of that device. Each change is `DeviceList.apply` of
/// the backend event (the device made from its TXT record included) and then `snapshot`, with
/// the snapshot kept until the next change. Heap allocations are counted by CMallocCounter
/// (every malloc-family call of the process, the Swift runtime's included), read before and
/// after each change. Prints one JSON object: per size, the median and 90th percentile time of
/// each change, and its allocations (mean, min, max); and a calibration: what one class
/// instance and one array cost in counted allocations (1 each when the counter sees the
/// runtime's allocations).
enum ListBenchmark {
    /// One kind of change, measured.
    struct Measure {
        var nanoseconds: [Double] = []
        var allocations: [Int] = []

        var json: [String: Any] {
            let sorted = nanoseconds.sorted()
            return [
                "changes": nanoseconds.count,
                "medianNanoseconds": sorted.isEmpty ? 0 : sorted[sorted.count / 2].rounded(),
                "p90Nanoseconds": sorted.isEmpty ? 0 : sorted[sorted.count * 9 / 10].rounded(),
                "allocationsPerChange": Double(allocations.reduce(0, +)) / Double(max(1, allocations.count)),
                "allocationsMin": allocations.min() ?? 0,
                "allocationsMax": allocations.max() ?? 0,
            ]
        }
    }

    static let base = "_googlecast._tcp"

    static func run(_ arguments: [String]) -> Never {
        var arguments = arguments
        var sizes = [50, 500, 5000]
        var count = 2000
        var out: String?
        while let option = arguments.first {
            guard arguments.count >= 2 else { fail("\(option) wants a value") }
            let value = arguments[1]
            arguments.removeFirst(2)
            switch option {
            case "--sizes":
                let parsed = value.split(separator: ",").compactMap { Int($0) }
                guard !parsed.isEmpty, parsed.allSatisfy({ $0 > 0 }) else {
                    fail("--sizes wants positive numbers, e.g. 50,500,5000")
                }
                sizes = parsed
            case "--count":
                guard let n = Int(value), n > 0 else { fail("--count wants a positive number") }
                count = n
            case "--out":
                out = value
            default:
                fail("usage: cast-bench list [--sizes 50,500,5000] [--count N] [--out FILE]")
            }
        }
        var result: [String: Any] = ["calibration": calibration(), "changesPerKind": count]
        result["sizes"] = sizes.map { size -> [String: Any] in
            let (update, insert, remove) = measure(size: size, count: count)
            return ["devices": size, "update": update.json, "insert": insert.json, "remove": remove.json]
        }
        guard let json = try? JSONSerialization.data(withJSONObject: result, options: [.sortedKeys, .prettyPrinted])
        else {
            fail("cannot write the result as JSON")
        }
        print(String(decoding: json, as: UTF8.self))
        if let out {
            do { try (json + Data("\n".utf8)).write(to: URL(fileURLWithPath: out)) } catch {
                fail("cannot write \(out): \(error)")
            }
        }
        exit(0)
    }

    /// Counted allocations of one class instance and of one array: 1 each when the counter
    /// sees the Swift runtime's allocations.
    static func calibration() -> [String: Int] {
        let before = cast_bench_allocations()
        let box = makeBox()
        let afterBox = cast_bench_allocations()
        let array = [Int](repeating: box.value, count: 1000)
        let afterArray = cast_bench_allocations()
        withExtendedLifetime((box, array)) {}
        let calibration = ["classInstance": Int(afterBox - before), "array": Int(afterArray - afterBox)]
        guard calibration.values.allSatisfy({ $0 >= 1 }) else {
            fail("the allocation counter does not see the runtime's allocations: \(calibration)")
        }
        return calibration
    }

    private final class Box {
        var value = 0
    }

    /// A class instance on the heap (not inlined, so the optimiser cannot keep it on the stack).
    @inline(never)
    private static func makeBox() -> Box { Box() }

    /// A device event: device `number`, named by `name`, with TXT status `status`.
    static func service(_ number: Int, name: Int, status: Int) -> DiscoveredService {
        let id = String(format: "%032x", number)
        let txt = TXTRecord(
            strings: [
                "id=\(id)", "fn=Bench Device \(String(format: "%06d", name))", "md=Chromecast", "ve=05", "ca=4101",
                "st=\(status)",
            ]
            .map { Array($0.utf8) })
        let resolved = ResolvedService(
            instanceName: "Chromecast-\(id)", hostName: "\(id).local", port: 8009,
            addresses: [
                ServiceAddress(
                    "10.0.\(number / 250 % 250).\(number % 250 + 1)", interfaceName: "eth0", interfaceIndex: 2)
            ].compactMap { $0 },
            txt: txt)
        return DiscoveredService(service: resolved, browseTypes: [base])
    }

    /// The name of a change's kind.
    static func kind(of change: DeviceListChange) -> String {
        switch change {
        case .inserted: "inserted"
        case .updated: "updated"
        case .updatedAndMoved: "updatedAndMoved"
        case .removed: "removed"
        }
    }

    /// Times `count` changes of each kind on a list of `size` devices.
    static func measure(size: Int, count: Int) -> (update: Measure, insert: Measure, remove: Measure) {
        // Names from a fixed permutation, so inserts land anywhere in the order.
        let name = { (number: Int) in (number &* 7919 &+ 13) % 1_000_003 }
        var list = DeviceList()
        for number in 0..<size { _ = list.apply(.found(service(number, name: name(number), status: 0))) }
        var snapshot = list.snapshot
        guard snapshot.count == size else { fail("the list has \(snapshot.count) devices, not \(size)") }

        // Every event built before timing: the clock sees the list's work only.
        var status = [Int](repeating: 0, count: size)
        var updates: [BackendEvent] = []
        for step in 0..<count {
            let number = step &* 7919 % size
            status[number] ^= 1
            updates.append(.updated(service(number, name: name(number), status: status[number])))
        }
        let inserts = (0..<count).map { BackendEvent.found(service(size + $0, name: name(size + $0), status: 0)) }
        let removals = (0..<count).map { BackendEvent.removed(service(size + $0, name: name(size + $0), status: 0)) }

        var update = Measure(), insert = Measure(), remove = Measure()
        let clock = ContinuousClock()
        func timed(_ event: BackendEvent, into measure: inout Measure, expecting kind: String) {
            let allocationsBefore = cast_bench_allocations()
            let start = clock.now
            let changes = list.apply(event)
            snapshot = list.snapshot
            let elapsed = clock.now - start
            let allocations = Int(cast_bench_allocations() - allocationsBefore)
            guard changes.count == 1, Self.kind(of: changes[0]) == kind else {
                fail("expected one \(kind), got \(changes)")
            }
            measure.nanoseconds.append(
                Double(elapsed.components.attoseconds) / 1e9 + Double(elapsed.components.seconds) * 1e9)
            measure.allocations.append(allocations)
        }
        for step in 0..<count {
            timed(updates[step], into: &update, expecting: "updated")
            timed(inserts[step], into: &insert, expecting: "inserted")
            timed(removals[step], into: &remove, expecting: "removed")
        }
        guard snapshot.count == size, snapshot.generation == list.generation else {
            fail("the list ended with \(snapshot.count) devices")
        }
        return (update, insert, remove)
    }
}
