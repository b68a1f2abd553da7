@testable import CastScanCLI
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The tool run as a careless or hostile user would: paths that are not regular files, output
/// that cannot be written, absurd numbers, deep nesting, hostile names. Nothing is harmed,
/// nothing traps, every case ends with a clear message and its documented status.
@Suite("cast-scan does no harm, end to end")
struct EndToEndNoHarmTests {
    /// What `stat` says a path is, to compare before and after a run.
    struct Identity: Equatable, CustomStringConvertible {
        var mode: UInt32
        var device: UInt64
        var inode: UInt64
        var size: Int64

        init(lstat path: String) throws {
            var info = stat()
            guard lstat(path, &info) == 0 else { throw POSIXError(.ENOENT) }
            mode = info.st_mode
            device = UInt64(info.st_rdev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
        }

        var description: String { "mode \(String(mode, radix: 8)) rdev \(device) inode \(inode) size \(size)" }
    }

    // MARK: - Paths the tool writes

    @Test(
        "a device node, a FIFO, a socket or a directory given as --state is refused (73) and left as it was",
        arguments: ["device", "fifo", "socket", "directory", "link-to-device"])
    func stateRefused(kind: String) async throws {
        let directory = try TestDirectory()
        let path = directory.path(kind)
        switch kind {
        case "device", "link-to-device":
            // The same device as /dev/null (character 1:3), made inside the test's directory.
            let node = directory.path("node")
            #expect(
                mknod(node, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0,
                "mknod needs root: \(String(cString: strerror(errno)))")
            if kind == "device" {
                try FileManager.default.moveItem(atPath: node, toPath: path)
            } else {
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: node)
            }
        case "fifo":
            #expect(mkfifo(path, 0o644) == 0)
        case "socket":
            let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            defer { close(descriptor) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { buffer in
                for (index, byte) in path.utf8.enumerated() where index < buffer.count - 1 { buffer[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            #expect(bound == 0)
        default:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        let before = try Identity(lstat: path)
        let target = kind == "link-to-device" ? try Identity(lstat: directory.path("node")) : nil
        let result = try await CastScanProcess.run(
            ["--replay", FixturePaths.livingRoom, "--ios", "14.5", "--state", path])
        #expect(result.exitCode == ExitCode.cannotCreate.rawValue, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.contains("refusing to use state file"), "\(result)")
        #expect(result.stderr.contains("left untouched"), "\(result)")
        #expect(try Identity(lstat: path) == before, "\(kind) changed")
        if let target { #expect(try Identity(lstat: directory.path("node")) == target, "the link's device changed") }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(!names.contains { $0.contains(".tmp-") }, "a temporary file was left: \(names)")
    }

    @Test("a symlinked state file: the link stays a link, its target is replaced in place")
    func symlinkedState() async throws {
        let directory = try TestDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("real"), withIntermediateDirectories: false)
        let target = directory.path("real/sender.json")
        try directory.write("real/sender.json", #"{"version": 1, "discoveryHasStartedOnce": true}"#)
        let link = directory.path("state.json")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real/sender.json")
        let result = try await CastScanProcess.run(
            ["--replay", FixturePaths.livingRoom, "--ios", "14.5", "--permission", "granted", "--state", link])
        #expect(result.exitCode == 0, "\(result)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real/sender.json")
        let stored = try String(contentsOfFile: target, encoding: .utf8)
        #expect(stored.contains(#""localNetworkPermission":"granted""#), "\(stored)")
        #expect(stored.contains(#""version":2"#), "\(stored)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("real")) == ["sender.json"])
    }

    // MARK: - Output that cannot be written

    @Test(
        "standard output on a full disk: one line on stderr, exit 74",
        arguments: [[], ["--json"], ["watch", "--jsonl"]])
    func fullDisk(_ extra: [String]) async throws {
        let result = try await CastScanProcess.runScript(
            #""$CAST_SCAN" "$@" >/dev/full"#, extra + ["--replay", FixturePaths.livingRoom])
        #expect(result.exitCode == ExitCode.ioError.rawValue, "\(result)")
        #expect(
            result.stderrLines == ["cast-scan: cannot write to standard output: No space left on device"], "\(result)")
    }

    @Test("standard output closed: one line on stderr, exit 74, and the state file gets none of the output")
    func closedStdout() async throws {
        let directory = try TestDirectory()
        let state = directory.path("state.json")
        let result = try await CastScanProcess.runScript(
            #""$CAST_SCAN" --replay "$1" --ios 14.5 --state "$2" >&-"#, [FixturePaths.livingRoom, state])
        #expect(result.exitCode == ExitCode.ioError.rawValue, "\(result)")
        #expect(result.stderrLines == ["cast-scan: cannot write to standard output: Bad file descriptor"], "\(result)")
        let stored = try Data(contentsOf: URL(fileURLWithPath: state))
        #expect(
            (try? JSONSerialization.jsonObject(with: stored)) != nil,
            "the state file is not JSON: \(String(decoding: stored, as: UTF8.self))")
    }

    @Test("standard error closed on an error path: the status stays right, nothing traps")
    func closedStderr() async throws {
        let usage = try await CastScanProcess.runScript(#""$CAST_SCAN" --bogus 2>&-"#)
        #expect(usage.exitCode == ExitCode.usage.rawValue, "\(usage)")
        let bad = try await CastScanProcess.runScript(#""$CAST_SCAN" --replay "$1" 2>&-"#, [FixturePaths.badReplay])
        #expect(bad.exitCode == ExitCode.dataError.rawValue, "\(bad)")
        let both = try await CastScanProcess.runScript(
            #""$CAST_SCAN" --replay "$1" >/dev/full 2>&-"#, [FixturePaths.livingRoom])
        #expect(both.exitCode == ExitCode.ioError.rawValue, "\(both)")
    }

    @Test(
        "a reader that goes away ends a watch quietly with 0, whether SIGPIPE is ignored or not",
        arguments: ["trap '' PIPE; ", ""])
    func closedPipe(prefix: String) async throws {
        let directory = try TestDirectory()
        // Ten devices a second apart: the watch outlives `head` by 9 s unless the pipe ends it.
        var writer = ReplayWriter(devices: [])
        writer.events = (0..<10).map { index in
            ReplayWriter(
                devices: [
                    .init(
                        instance: "D\(index)", friendlyName: "Device \(index)", id: "id\(index)",
                        address: "10.0.0.\(index + 1)")
                ], at: Double(index)
            ).events[1]
        }
        let replay = try writer.write(to: directory)
        let result = try await CastScanProcess.runScript(
            prefix + #""$CAST_SCAN" watch --replay "$1" | head -n 1 >/dev/null; echo "status ${PIPESTATUS[0]}""#,
            [replay])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdoutLines == ["status 0"], "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.elapsed < .seconds(6), "the watch did not end when its reader went away: \(result.elapsed)")
    }

    // MARK: - Numbers and nesting from files

    @Test(
        "a replay time of 1e19, 1e20 or 1e308 seconds is a bad file (65) naming the field, for a scan and a watch",
        arguments: ["1e19", "1e20", "1e308", "9.3e18"])
    func hugeGap(time: String) async throws {
        let directory = try TestDirectory()
        let replay = try directory.write(
            "gap.json",
            """
            {"version": 1, "events": [{"at": 0, "kind": "state", "state": "running"},
              {"at": \(time), "kind": "allForNow", "browseType": "_googlecast._tcp"}]}
            """)
        for command in [["watch"], []] {
            let result = try await CastScanProcess.run(command + ["--replay", replay])
            #expect(result.exitCode == ExitCode.dataError.rawValue, "\(result)")
            #expect(result.stderr.contains("events[1].at"), "\(result)")
        }
    }

    @Test("a scenario nested 500,000 levels deep ends within a second of CPU with 65 naming the limit")
    func nestedScenario() async throws {
        let directory = try TestDirectory()
        let path = try directory.write(
            "nested.json", String(repeating: "[", count: 500_000) + String(repeating: "]", count: 500_000))
        let result = try await CastScanProcess.run(["simulate", path])
        #expect(result.exitCode == ExitCode.dataError.rawValue, "\(result)")
        #expect(result.stderr.contains("nested more than 16 levels"), "\(result)")
        #expect(result.cpuTime < .seconds(1), "took \(result.cpuTime) of CPU")
    }

    @Test("a replay of 16 MiB of brackets is refused before decoding, in under a second of CPU")
    func nestedReplay() async throws {
        let directory = try TestDirectory()
        let half = 8 * 1024 * 1024 - 8
        let path = try directory.write(
            "nested.json", String(repeating: "[", count: half) + String(repeating: "]", count: half))
        let run = try await CastScanProcess.runMeasured(["--replay", path])
        #expect(run.exitCode == ExitCode.dataError.rawValue, "\(run)")
        #expect(run.cpuTime < .seconds(1), "\(run)")
        #expect(run.peakResidentBytes < 100 * 1024 * 1024, "\(run)")
    }

    @Test(
        "a scenario whose 2,000 steps each load a 100,000-event replay costs at most a second more than one such step")
    func replayHeavyScenario() async throws {
        let directory = try TestDirectory()
        let events = (0..<100_000).map { #"{"at":0,"kind":"resolvesPending","pending":\#($0 % 3)}"# }
        let replay = try directory.write(
            "replay.json", #"{"version":1,"events":["# + events.joined(separator: ",") + "]}")
        let steps =
            [#"{"input":"appLaunched"}"#]
            + Array(repeating: #"{"input":"deviceListChanged","replay":"\#(replay)"}"#, count: 2000)
        let scenario = try directory.write(
            "scenario.json",
            """
            {"version": 1, "app": {"platform": "iOS 14.5", "sdk": "4.8.3"}, "steps": [\(steps.joined(separator: ","))]}
            """)
        let result = try await CastScanProcess.run(["simulate", scenario])
        #expect(result.exitCode == ExitCode.dataError.rawValue, "\(result)")
        #expect(result.stderr.contains("more than 200000 events"), "\(result)")
        // Loading and playing the replay once is the work that cannot be avoided (a scenario with
        // one such step); the other 1,999 references add less than a second to it. The release
        // build does the whole run in about 0.6 s.
        let single = try directory.write(
            "single.json",
            """
            {"version": 1, "app": {"platform": "iOS 14.5", "sdk": "4.8.3"}, "steps": [\(steps.prefix(2).joined(separator: ","))]}
            """)
        let once = try await CastScanProcess.run(["simulate", single])
        #expect(once.exitCode == 0, "\(once)")
        // CPU time: the work, whatever else the machine does meanwhile; but a busy machine makes
        // every instruction dearer (caches shared), so the allowance grows with the load's cost:
        // a quarter of one load more. Loading the replay for each step would cost 2,000 loads.
        #expect(
            result.cpuTime < once.cpuTime * 1.25 + .seconds(1),
            "took \(result.cpuTime) of CPU; one load takes \(once.cpuTime)")
    }

    // MARK: - Inputs behind links

    @Test("replays, scenarios, Info.plists and state files behind symbolic links are read")
    func symlinkedInputs() async throws {
        let directory = try TestDirectory()
        let replayLink = directory.path("replay-link.json")
        try FileManager.default.createSymbolicLink(atPath: replayLink, withDestinationPath: FixturePaths.livingRoom)
        let replay = try await CastScanProcess.run(["--replay", replayLink, "--json"])
        #expect(replay.exitCode == 0, "\(replay)")

        let scenarioLink = directory.path("scenario-link.json")
        try FileManager.default.createSymbolicLink(
            atPath: scenarioLink, withDestinationPath: FixturePaths.fixture("scenarios/ios14-first-tap-granted.json"))
        let scenario = try await CastScanProcess.run(["simulate", scenarioLink])
        #expect(scenario.exitCode == 0, "\(scenario)")

        let plistLink = directory.path("Info.plist")
        try FileManager.default.createSymbolicLink(
            atPath: plistLink, withDestinationPath: FixturePaths.fixture("plists/good.plist"))
        let plist = try await CastScanProcess.run(["plist", "check", plistLink])
        #expect(plist.exitCode == 0, "\(plist)")

        try directory.write("stored.json", #"{"version": 1, "discoveryHasStartedOnce": true}"#)
        let stateLink = directory.path("state-link.json")
        try FileManager.default.createSymbolicLink(
            atPath: stateLink, withDestinationPath: directory.path("stored.json"))
        let state = try await CastScanProcess.run([
            "--replay", FixturePaths.livingRoom, "--ios", "14.5", "--state", stateLink, "--json",
        ])
        #expect(state.exitCode == 0, "\(state)")
        #expect(state.stderr.isEmpty, "a followed state link must not be reported: \(state)")
        #expect(state.stdout.contains(#""discoveryHasStartedOnce" : true"#), "\(state)")
    }

    @Test("a FIFO, a device and a directory are still refused as inputs, at once (65)")
    func specialInputs() async throws {
        let directory = try TestDirectory()
        let fifo = directory.path("fifo")
        #expect(mkfifo(fifo, 0o644) == 0)
        for arguments in [
            ["--replay", fifo], ["simulate", fifo], ["plist", "check", fifo], ["--replay", "/dev/zero"],
            ["--replay", directory.url.path],
        ] {
            // A FIFO or device that blocked the read would hit the hang limit (no exit code).
            let result = try await CastScanProcess.run(arguments)
            #expect(result.exitCode == ExitCode.dataError.rawValue, "\(result)")
            #expect(result.cpuTime < .seconds(1), "\(result)")
        }
    }

    // MARK: - Hostile names in JSON

    @Test(
        "DEL, C1 controls, bidi overrides and line separators in names reach JSON output only as \\u escapes",
        arguments: [["--json"], ["watch", "--jsonl"]])
    func hostileJSON(_ command: [String]) async throws {
        let directory = try TestDirectory()
        let name = "A\u{7F}B\u{9B}31mC\u{85}D\u{202E}E\u{2066}F\u{2028}G\u{2029}H\u{200B}I👨‍👩‍👧"
        let replay = try ReplayWriter(devices: [
            .init(
                instance: "Hostile", friendlyName: name, id: "hostile1",
                address: "10.0.0.9")
        ]).write(to: directory)
        let result = try await CastScanProcess.run(command + ["--replay", replay])
        #expect(result.exitCode == 0, "\(result)")
        let raw = result.stdoutData
        for forbidden: [UInt8] in [
            [0x7F], [0xC2, 0x9B], [0xC2, 0x85], [0xE2, 0x80, 0xAE], [0xE2, 0x81, 0xA6],
            [0xE2, 0x80, 0xA8], [0xE2, 0x80, 0xA9], [0xE2, 0x80, 0x8B],
        ] {
            #expect(raw.firstRange(of: Data(forbidden)) == nil, "raw bytes \(forbidden) in the output")
        }
        for escape in [#"\u007f"#, #"\u009b"#, #"\u0085"#, #"\u202e"#, #"\u2066"#, #"\u2028"#, #"\u2029"#, #"\u200b"#] {
            #expect(result.stdout.contains(escape), "missing \(escape)")
        }
        #expect(result.stdout.contains("👨‍👩‍👧"), "a joined emoji must stay as it is")
        // The JSON still decodes to the name exactly.
        let line =
            command.first == "watch" ? result.stdoutLines.first { $0.contains(#""inserted""#) } ?? "" : result.stdout
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        let device =
            command.first == "watch"
            ? object?["device"] as? [String: Any] : (object?["devices"] as? [[String: Any]])?.first
        #expect(device?["friendlyName"] as? String == name)
    }

    // MARK: - Values on the command line

    @Test(
        "a negative number is reported as a bad value, not a missing one",
        arguments: [
            (["--timeout", "-1"], "--timeout must be a number of seconds from 0.1 to 3600 (got '-1')"),
            (["--ios", "-1"], "--ios must be an iOS version such as 14.5 (got '-1')"),
            (["--timeout", "-0.5"], "--timeout must be a number of seconds from 0.1 to 3600 (got '-0.5')"),
        ])
    func negativeValues(arguments: [String], message: String) async throws {
        let result = try await CastScanProcess.run(arguments)
        #expect(result.exitCode == ExitCode.usage.rawValue, "\(result)")
        #expect(result.stderrLines.first == "cast-scan: \(message)", "\(result)")
    }

    @Test("advise without --sdk uses 4.8.3, as its help says")
    func adviseDefault() async throws {
        let help = try await CastScanProcess.run(["advise", "--help"])
        #expect(help.stdout.contains("default 4.8.3"), "\(help)")
        let implicit = try await CastScanProcess.run(["advise", "--json"])
        let explicit = try await CastScanProcess.run(["advise", "--json", "--sdk", "4.8.3"])
        #expect(implicit.exitCode == 0, "\(implicit)")
        #expect(implicit.stdout == explicit.stdout)
    }
}
