import Foundation
import Testing

/// `--interface`, `-4` and `-6` with `watch --jsonl` and the list, on the living-room replay:
/// every `index` and `toIndex` of a watch is an index of the filtered list, so a client that
/// keeps its copy from the indices alone ends with the list the filters give (issue 24).
///
/// The recording as it is has every address on eth0 and one device with an IPv6 address (the
/// TV, which also has IPv4), so there only `-6` leaves devices out. The variant written here
/// moves the emulator to wlan0 and gives the Nest Mini an IPv6 address only, so `-4`, `-6`,
/// `--interface eth0` and `--interface wlan0` each leave out a device that sorts before another.
@Suite("cast-scan watch and list with --interface, -4 and -6, end to end")
struct EndToEndWatchFilterTests {
    /// One device of a copy: what the comparisons look at.
    struct Entry: Equatable, CustomStringConvertible {
        var uniqueID: String
        var name: String
        /// "address family interface", sorted.
        var addresses: [String]

        init(_ device: [String: Any]) {
            uniqueID = device["uniqueID"] as? String ?? "?"
            name = device["friendlyName"] as? String ?? "?"
            addresses = Self.addresses(device).sorted()
        }

        static func addresses(_ device: [String: Any]) -> [String] {
            (device["addresses"] as? [[String: Any]] ?? []).map {
                "\($0["address"] as? String ?? "?") \($0["family"] as? String ?? "?") \($0["interface"] as? String ?? "-")"
            }
        }

        static func == (a: Entry, b: Entry) -> Bool { a.uniqueID == b.uniqueID && a.addresses == b.addresses }
        var description: String { "\(name) \(addresses)" }
    }

    /// What the filters allow, as the comparisons apply them to an unfiltered list.
    struct Filter: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var family: String?
        var interface: String?

        static let ipv4 = Filter(arguments: ["-4"], family: "ipv4")
        static let ipv6 = Filter(arguments: ["-6"], family: "ipv6")
        static func interface(_ name: String) -> Filter { Filter(arguments: ["--interface", name], interface: name) }

        func allows(_ address: String) -> Bool {
            let parts = address.split(separator: " ").map(String.init)
            return (family == nil || parts[1] == family) && (interface == nil || parts[2] == interface)
        }

        /// `list` with only the addresses the filter allows, and without the devices left with none.
        func apply(_ list: [Entry]) -> [Entry] {
            list.compactMap { entry in
                var kept = entry
                kept.addresses = entry.addresses.filter(allows)
                return kept.addresses.isEmpty ? nil : kept
            }
        }

        var testDescription: String { arguments.joined(separator: " ") }
    }

    /// A replay and a filter, for parameterized tests.
    struct Case: Sendable, CustomTestStringConvertible {
        var variant: Bool
        var filter: Filter
        var testDescription: String { "\(filter.testDescription) on the \(variant ? "variant" : "recording")" }
    }

    /// Why a copy could not follow the indices.
    struct IndexError: Error, CustomStringConvertible {
        var description: String
    }

    /// The copy a client keeps from the indices alone: at scanCompleted and at the end.
    struct Rebuilt {
        var atScanCompleted: [Entry]?
        var scanCompletedDetail: String?
        var final: [Entry]
        /// Every device line, for the filter checks.
        var devices: [[String: Any]]
    }

    /// Follows every inserted, updated, moved and removed line by its indices only; throws on an
    /// index out of range or a device at an index that is not the one the line names.
    static func rebuild(_ lines: [String]) throws -> Rebuilt {
        var copy: [Entry] = []
        var rebuilt = Rebuilt(final: [], devices: [])
        for (number, line) in lines.enumerated() {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw IndexError(description: "line \(number + 1) is not a JSON object: \(line)")
            }
            let event = object["event"] as? String ?? ""
            if event == "scanCompleted" {
                rebuilt.atScanCompleted = copy
                rebuilt.scanCompletedDetail = object["detail"] as? String
            }
            guard ["inserted", "updated", "moved", "removed"].contains(event) else { continue }
            guard let device = object["device"] as? [String: Any], let index = object["index"] as? Int else {
                throw IndexError(description: "line \(number + 1): \(event) without a device or an index: \(line)")
            }
            rebuilt.devices.append(device)
            let entry = Entry(device)
            let at = "line \(number + 1) (\(event) at \(index), \(copy.count) listed: \(copy.map(\.name)))"
            if event == "inserted" {
                guard index >= 0, index <= copy.count else {
                    throw IndexError(description: "\(at): index out of range for \(entry.name)")
                }
                copy.insert(entry, at: index)
                continue
            }
            guard index >= 0, index < copy.count else {
                throw IndexError(description: "\(at): index out of range for \(entry.name)")
            }
            guard copy[index].uniqueID == entry.uniqueID else {
                throw IndexError(
                    description: "\(at): the copy holds \(copy[index].name) there, the line names \(entry.name)")
            }
            switch event {
            case "updated": copy[index] = entry
            case "removed": copy.remove(at: index)
            default:
                guard let to = object["toIndex"] as? Int else {
                    throw IndexError(description: "\(at): moved without toIndex")
                }
                copy.remove(at: index)
                guard to >= 0, to <= copy.count else {
                    throw IndexError(description: "\(at): toIndex \(to) out of range")
                }
                copy.insert(entry, at: to)
            }
        }
        rebuilt.final = copy
        return rebuilt
    }

    /// A watch's device lines, one short line each: event, index (and toIndex), name, addresses.
    static func trace(_ lines: [String]) -> String {
        lines.compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let device = object["device"] as? [String: Any], let event = object["event"] as? String
            else { return nil }
            let to = (object["toIndex"] as? Int).map { " to \($0)" } ?? ""
            return "  \(event) at \(object["index"] as? Int ?? -1)\(to): \(Entry(device))"
        }.joined(separator: "\n")
    }

    /// The living-room recording at four times its speed (1.75 s), as it is or as the variant.
    static func replay(variant: Bool, in directory: TestDirectory) throws -> String {
        let fast = try ReplayWriter.rescaled(FixturePaths.livingRoom, by: 0.25)
        guard variant else { return try directory.write("living-room-fast.json", fast) }
        guard var root = try JSONSerialization.jsonObject(with: fast) as? [String: Any],
            let events = root["events"] as? [[String: Any]]
        else { throw CocoaError(.fileReadCorruptFile) }
        root["events"] = events.map { event -> [String: Any] in
            guard var service = event["service"] as? [String: Any], let instance = service["instance"] as? String,
                service["addresses"] != nil
            else { return event }
            if instance.hasPrefix("Cast-Emulator-") {
                service["addresses"] = [["address": "192.168.1.99", "interface": "wlan0", "interfaceIndex": 3]]
            } else if instance.hasPrefix("Google-Nest-Mini-") {
                service["addresses"] = [
                    ["address": "fe80::a6b1:c1ff:fe2d:3101%eth0", "interface": "eth0", "interfaceIndex": 2]
                ]
            }
            var event = event
            event["service"] = service
            return event
        }
        return try directory.write("living-room-variant.json", try JSONSerialization.data(withJSONObject: root))
    }

    /// `watch --jsonl` on `replay` to its end, with `extra` arguments.
    static func watch(_ replay: String, _ extra: [String]) async throws -> ProcessResult {
        try await CastScanProcess.run(["watch", "--jsonl", "--replay", replay] + extra, timeout: .seconds(30))
    }

    /// `--json` on `replay` with `extra` arguments: the devices, and the whole object.
    static func list(_ replay: String, _ extra: [String], in directory: TestDirectory) async throws
        -> (ProcessResult, [String: Any]?)
    {
        let result = try await CastScanProcess.run(
            ["--json", "--replay", replay, "--state", directory.path("state-\(UUID().uuidString).json")] + extra)
        let object = try? JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any]
        return (result, object)
    }

    static let cases: [Case] = [
        Case(variant: false, filter: .ipv6), Case(variant: false, filter: .ipv4),
        Case(variant: false, filter: .interface("eth0")), Case(variant: false, filter: .interface("wlan0")),
        Case(variant: true, filter: .ipv6), Case(variant: true, filter: .ipv4),
        Case(variant: true, filter: .interface("eth0")), Case(variant: true, filter: .interface("wlan0")),
    ]

    @Test(
        "watch --jsonl with a filter: the copy kept from the indices is the list's at scanCompleted and the unfiltered watch's, filtered, at the end",
        arguments: cases)
    func watchIndices(_ test: Case) async throws {
        let directory = try TestDirectory()
        let replay = try Self.replay(variant: test.variant, in: directory)
        async let filteredRun = Self.watch(replay, test.filter.arguments)
        async let unfilteredRun = Self.watch(replay, [])
        async let listRun = Self.list(replay, test.filter.arguments, in: directory)
        let (filtered, unfiltered, (listed, listObject)) = try await (filteredRun, unfilteredRun, listRun)
        #expect(filtered.exitCode == 0, "\(filtered)")
        #expect(filtered.stderr.isEmpty, "\(filtered)")
        #expect(unfiltered.exitCode == 0, "\(unfiltered)")
        #expect(listed.exitCode == 0, "\(listed)")
        let devices = try #require(listObject?["devices"] as? [[String: Any]], "\(listed)")
        let list = devices.map(Entry.init)

        let all = try Self.rebuild(unfiltered.stdoutLines)
        let copy: Rebuilt
        do {
            copy = try Self.rebuild(filtered.stdoutLines)
        } catch {
            Issue.record(
                """
                a copy kept from the indices of `watch \(test.filter.testDescription)` goes wrong: \(error)
                the watch's changes:
                \(Self.trace(filtered.stdoutLines))
                the unfiltered watch's:
                \(Self.trace(unfiltered.stdoutLines))
                """)
            return
        }
        // Every line shows only what the filter allows.
        for device in copy.devices {
            let addresses = Entry.addresses(device)
            #expect(!addresses.isEmpty && addresses.allSatisfy(test.filter.allows), "\(Entry(device))")
        }
        for entry in list {
            #expect(!entry.addresses.isEmpty && entry.addresses.allSatisfy(test.filter.allows), "\(entry)")
        }
        // At scanCompleted the copy is the one-shot list with the same filter; at the end it is
        // the unfiltered watch's copy (whose indices are the core's own), filtered.
        #expect(copy.atScanCompleted == list, "at scanCompleted: \(copy.atScanCompleted ?? []) ; the list: \(list)")
        let count = list.count
        #expect(copy.scanCompletedDetail == "scan complete: \(count) device\(count == 1 ? "" : "s")", "\(filtered)")
        #expect(
            copy.final == test.filter.apply(all.final),
            "at the end: \(copy.final) ; unfiltered, filtered: \(test.filter.apply(all.final))")
        // The unfiltered copy at scanCompleted, filtered, is the filtered list too.
        #expect(test.filter.apply(all.atScanCompleted ?? []) == list)
    }

    @Test(
        "list --json with a filter: the devices and the addresses the filter allows, and the app sees only those",
        arguments: [
            // The recording: only the TV has an IPv6 address; every address is on eth0.
            (false, ["-6"], ["Living Room TV"]),
            (false, ["-4"], ["Dev Emulator", "Downstairs", "Kitchen speaker", "Living Room TV"]),
            (false, ["--interface", "eth0"], ["Dev Emulator", "Downstairs", "Kitchen speaker", "Living Room TV"]),
            (false, ["--interface", "wlan0"], []),
            (false, ["--interface", "eth0", "-6"], ["Living Room TV"]),
            // The variant: the emulator on wlan0, the Nest Mini on IPv6 only.
            (true, ["-6"], ["Kitchen speaker", "Living Room TV"]),
            (true, ["-4"], ["Dev Emulator", "Downstairs", "Living Room TV"]),
            (true, ["--interface", "eth0"], ["Downstairs", "Kitchen speaker", "Living Room TV"]),
            (true, ["--interface", "wlan0"], ["Dev Emulator"]),
            (true, ["--interface", "wlan0", "-6"], []),
        ])
    func listFiltered(variant: Bool, arguments: [String], names: [String]) async throws {
        let directory = try TestDirectory()
        let replay = try Self.replay(variant: variant, in: directory)
        let (result, object) = try await Self.list(replay, arguments, in: directory)
        #expect(result.exitCode == 0, "\(result)")
        let devices = try #require(object?["devices"] as? [[String: Any]], "\(result)")
        #expect(devices.map(Entry.init).map(\.name) == names, "\(result)")
        var filter = Filter(arguments: arguments)
        if arguments.contains("-4") { filter.family = "ipv4" }
        if arguments.contains("-6") { filter.family = "ipv6" }
        if let at = arguments.firstIndex(of: "--interface") { filter.interface = arguments[at + 1] }
        let (_, unfilteredObject) = try await Self.list(replay, [], in: directory)
        let unfiltered = try #require(unfilteredObject?["devices"] as? [[String: Any]])
        #expect(devices.map(Entry.init) == filter.apply(unfiltered.map(Entry.init)), "\(result)")
        #expect(object?["visibleDeviceCount"] as? Int == names.count, "\(result)")
        let step = (object?["sender"] as? [String: Any])?["step"] as? [String: Any]
        let visible = (step?["visibleDevices"] as? [[String: Any]])?.compactMap { $0["friendlyName"] as? String }
        #expect(visible == names, "\(result)")
    }
}
