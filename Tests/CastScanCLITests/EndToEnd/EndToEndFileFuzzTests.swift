import CastDiscovery
@testable import CastScanCLI
import Foundation
import Testing

/// Every file reader of the tool fed mutated copies of valid files: each run must end with one
/// of the reader's documented statuses, in under 2 s of CPU, under 100 MiB resident, never by a
/// signal. `CAST_SCAN_FUZZ_RUNS` sets the runs per reader (default 40; e.g. 2000 for a long
/// run).
@Suite("cast-scan's file readers on mutated files")
struct EndToEndFileFuzzTests {
    /// One reader: how to call the tool on a file, the valid files to mutate, the statuses a
    /// run may end with.
    struct Reader: Sendable, CustomTestStringConvertible {
        var name: String
        var seeds: [String]
        var fileName: String
        var allowed: Set<Int32>
        var command: @Sendable (_ file: String) -> [String]
        var testDescription: String { name }
    }

    static let runs = ProcessInfo.processInfo.environment["CAST_SCAN_FUZZ_RUNS"].flatMap(Int.init) ?? 40

    static let readers: [Reader] = [
        // A mutated replay may lose its all-for-now: the short timeout keeps such a scan short.
        Reader(
            name: "replay", seeds: [FixturePaths.livingRoom, FixturePaths.badReplay], fileName: "replay.json",
            allowed: [0, 65]
        ) { ["--replay", $0, "--json", "--timeout", "0.3"] },
        // 2: a step's expectation no longer holds (the scenario ran, and said so).
        Reader(
            name: "scenario",
            seeds: [
                "ios14-first-tap-granted.json", "ios14-first-tap-denied-then-settings.json",
                "ios13-first-tap-bluetooth.json",
            ]
            .map { FixturePaths.fixture("scenarios/" + $0) },
            fileName: "scenario.json", allowed: [0, 2, 65]
        ) { ["simulate", $0] },
        // 2: the check found errors (the file was read and checked).
        Reader(
            name: "Info.plist",
            seeds: ["good.plist", "binary-youtube.plist", "wrong-types.plist"].map {
                FixturePaths.fixture("plists/" + $0)
            },
            fileName: "Info.plist", allowed: [0, 2, 65]
        ) { ["plist", "check", $0] },
        // A state file that cannot be read as one is a warning: the run goes on.
        Reader(name: "state file", seeds: [], fileName: "state.json", allowed: [0]) {
            ["--replay", FixturePaths.livingRoom, "--ios", "14.5", "--json", "--state", $0]
        },
    ]

    static let stateSeeds = [
        #"{"bluetoothPromptAnswered":false,"discoveryHasStartedOnce":true,"localNetworkPermission":"denied","version":2}"#,
        #"{"version": 1, "discoveryHasStartedOnce": true}"#,
    ]

    @Test("each mutated file ends with a documented status, in under 2 s of CPU, under 100 MiB", arguments: readers)
    func mutated(reader: Reader) async throws {
        let directory = try TestDirectory()
        var seeds = try reader.seeds.map { try [UInt8](Data(contentsOf: URL(fileURLWithPath: $0))) }
        if reader.name == "state file" { seeds = Self.stateSeeds.map { Array($0.utf8) } }
        #expect(!seeds.isEmpty)
        // The same seed gives the same mutations, so a failure can be replayed.
        var random = JitterGenerator(seed: 0xCA57_5CA0 ^ UInt64(reader.name.utf8.count))
        var statuses: [Int32: Int] = [:]
        for run in 0..<Self.runs {
            let input = Mutator.mutate(seeds[run % seeds.count], others: seeds, using: &random)
            let path = try directory.write(reader.fileName, Data(input))
            let result = try await CastScanProcess.runMeasured(reader.command(path))
            let sample = String(decoding: input.prefix(300), as: UTF8.self)
            guard let status = result.exitCode, reader.allowed.contains(status) else {
                Issue.record("run \(run): \(result)\ninput starts: \(sample)")
                continue
            }
            statuses[status, default: 0] += 1
            // Work, not wall time (which a busy machine stretches): a hang is the 10 s timeout.
            #expect(result.cpuTime < .seconds(2), "run \(run) used \(result.cpuTime) of CPU\ninput starts: \(sample)")
            #expect(result.peakResidentBytes < 100 * 1024 * 1024, "run \(run): \(result.peakResidentBytes / 1024) KiB")
            #expect(!result.stderr.contains("Fatal error"), "run \(run): \(result)")
        }
        // The mutations must reach the reader's checks, not only its first refusal.
        if reader.allowed.count > 1 { #expect(statuses.count > 1, "every run ended the same way: \(statuses)") }
    }
}

/// Mutations of a valid file: byte flips, inserted and deleted runs, duplicated and spliced
/// chunks, truncation, deep brackets, extreme numbers, control characters inside strings.
enum Mutator {
    static let extremeNumbers = [
        "1e400", "-1", "1e19", "18446744073709551616", "-0", "9.3e18", "1e308", "NaN", "0.0000001",
    ]
    static let hostile = ["\u{1B}[31m", "\u{9B}2J", "\u{202E}", "\u{0}", "\u{7F}", "\\u0000", "\\ud800", "\u{2028}"]

    static func mutate(_ seed: [UInt8], others: [[UInt8]], using random: inout JitterGenerator) -> [UInt8] {
        var bytes = seed
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            guard !bytes.isEmpty else { bytes = Array("{".utf8); continue }
            let at = Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<9, using: &random) {
            case 0:
                bytes[at] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
            case 1:
                bytes.insert(
                    contentsOf: (0..<Int.random(in: 1...16, using: &random)).map { _ in
                        UInt8.random(in: 0...255, using: &random)
                    }, at: at)
            case 2:
                bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...64, using: &random)))
            case 3:
                let end = min(bytes.count, at + Int.random(in: 1...256, using: &random))
                bytes.insert(contentsOf: bytes[at..<end], at: Int.random(in: 0...bytes.count, using: &random))
            case 4:
                bytes.removeSubrange(at...)
            case 5:
                let depth = Int.random(in: 1...5000, using: &random)
                bytes.insert(
                    contentsOf: Array(repeating: UInt8(ascii: "["), count: depth)
                        + Array(repeating: UInt8(ascii: "]"), count: depth), at: at)
            case 6:
                // The number starting at or after `at`, replaced with an extreme one.
                if let start = bytes[at...].firstIndex(where: { $0 >= 0x30 && $0 <= 0x39 }) {
                    let end =
                        bytes[start...].firstIndex { !($0 >= 0x30 && $0 <= 0x39) && $0 != UInt8(ascii: ".") }
                        ?? bytes.count
                    bytes.replaceSubrange(start..<end, with: Array(extremeNumbers.randomElement(using: &random)!.utf8))
                }
            case 7:
                // Hostile characters right after a quote, that is inside a string.
                if let quote = bytes[at...].firstIndex(of: UInt8(ascii: "\"")) {
                    bytes.insert(contentsOf: Array(hostile.randomElement(using: &random)!.utf8), at: quote + 1)
                }
            default:
                let other = others.randomElement(using: &random)!
                guard !other.isEmpty else { continue }
                let from = Int.random(in: 0..<other.count, using: &random)
                bytes.insert(contentsOf: other[from..<min(other.count, from + 128)], at: at)
            }
        }
        return bytes
    }
}
