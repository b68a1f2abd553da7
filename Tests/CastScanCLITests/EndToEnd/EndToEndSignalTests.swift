import CastTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM end every command within a second whatever standard output is doing (a
/// reader that stopped reading) and whatever the command is blocked in (reading a replay,
/// looking up a host name); a second signal ends it at once; a slow reader costs lines, said,
/// never memory. The product's bound is 1 s; the tests allow 5 s for a starved test pool, and
/// print the real figure (`measured:` lines).
@Suite("cast-scan and termination signals, end to end")
struct EndToEndSignalTests {
    /// The counts of the end note on stderr: lines dropped in all, and of them still waiting when
    /// the process ended; nil without the note.
    static func endNote(_ result: ProcessResult) -> (total: Int, waiting: Int)? {
        let note =
            #/cast-scan: standard output was not read: dropped (\d+) lines? in all(?:, (\d+) of them still waiting at the end)?/#
        for line in result.stderrLines {
            if let match = line.wholeMatch(of: note), let total = Int(match.1) {
                return (total, match.2.flatMap { Int($0) } ?? 0)
            }
        }
        return nil
    }

    /// The whole lines of standard output (a line cut by the end, mid-write, left out).
    static func wholeLines(_ result: ProcessResult) -> [String] {
        var lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()  // after the last newline: empty, or a line the end cut
        return lines
    }

    static func measured(_ what: String, _ duration: Duration) {
        print("measured: \(what): \(duration)")
    }

    @Test(
        "a watch whose reader stopped reading ends on the signal at once (exit 0), the lines still queued dropped and said",
        arguments: [(true, SIGTERM), (true, SIGINT), (false, SIGTERM), (false, SIGINT)])
    func stalledWatch(jsonLines: Bool, signal: Int32) async throws {
        let directory = try TestDirectory()
        // 24 s of lines: the replay is still playing when the signal comes, however busy the machine.
        let replay = try directory.write("busy.json", ReplayWriter.statusChanges(count: 12000, interval: 0.002))
        let child = try CastScanProcess.startPiped(["watch", "--replay", replay] + (jsonLines ? ["--jsonl"] : []))
        // The line in the blocked write is still waiting (the end note counts it) when the
        // signal comes.
        let sent = try #require(
            await child.send(signal, onceWriteBlocksWithin: .seconds(600)), "the watch never filled its pipe")
        let result = await child.wait(timeout: .seconds(30))
        Self.measured("stalled watch \(jsonLines ? "--jsonl" : "table") signal \(signal)", result.ended - sent)
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.ended - sent < .seconds(5), "the watch took \(result.ended - sent) to end\n\(result)")
        let note = try #require(Self.endNote(result), "no end note\n\(result)")
        #expect(note.waiting >= 1 && note.total >= note.waiting, "\(result)")
        #expect(result.stderrLines.count == 1, "only the end note on stderr\n\(result)")
        let lines = Self.wholeLines(result)
        #expect(lines.count > 50, "\(result)")
        if jsonLines {
            for line in lines {
                #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
            }
        } else {
            #expect(lines.allSatisfy { $0.contains(" * ") || $0.contains(" + ") || $0.contains(" ~ ") }, "\(result)")
        }
    }

    @Test(
        "with --report and a collector that refuses, a stalled watch still ends at once, every event it showed in the spool",
        arguments: [SIGTERM, SIGINT])
    func stalledWatchReporting(signal: Int32) async throws {
        let directory = try TestDirectory()
        let spool = directory.path("spool")
        let replay = try directory.write("busy.json", ReplayWriter.statusChanges(count: 12000, interval: 0.002))
        let child = try CastScanProcess.startPiped(
            ["watch", "--jsonl", "--replay", replay, "--report", EndToEndReportTests.unreachable, "--spool", spool])
        // The line in the blocked write is still waiting (the end note counts it) when the
        // signal comes.
        let sent = try #require(
            await child.send(signal, onceWriteBlocksWithin: .seconds(600)), "the watch never filled its pipe")
        let result = await child.wait(timeout: .seconds(30))
        Self.measured("stalled watch --report signal \(signal)", result.ended - sent)
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.ended - sent < .seconds(5), "the watch took \(result.ended - sent) to end\n\(result)")
        let note = try #require(Self.endNote(result), "no end note\n\(result)")
        #expect(note.waiting >= 1, "\(result)")
        for line in result.stderrLines where !line.hasPrefix("cast-scan: standard output was not read: ") {
            #expect(line.hasPrefix("cast-scan: report: "), "\(result)")
        }
        // Every device event that reached the reader was stored before the process ended.
        let shown = Self.wholeLines(result).filter { $0.contains(#""device":"#) }.count
        #expect(shown > 50, "\(result)")
        let status = try await CastScanProcess.run(["report", "status", "--spool", spool, "--json"])
        #expect(status.exitCode == 0, "\(status)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: status.stdoutData) as? [String: Any], "\(status)")
        let pending = try #require(object["pending"] as? Int, "\(status)")
        #expect(pending >= shown, "\(pending) events stored, \(shown) shown\n\(status)")
        #expect(object["dropped"] as? Int == 0, "\(status)")
    }

    @Test(
        "a one-shot scan whose output is never read ends on the signal at once with 143 or 130",
        arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130))])
    func stalledOneShot(signal: Int32, status: Int32) async throws {
        // 400 devices: a JSON document far larger than the pipe.
        let directory = try TestDirectory()
        let devices = (0..<400).map { index in
            ReplayWriter.Device(
                instance: "Chromecast-\(index)", friendlyName: "Device \(index)", id: "device\(index)",
                address: "192.168.\(index / 250).\(index % 250 + 1)")
        }
        let replay = try ReplayWriter(devices: devices).write(to: directory)
        let child = try CastScanProcess.startPiped(["--replay", replay, "--json"])
        let sent = try #require(
            await child.send(signal, onceWriteBlocksWithin: .seconds(600)), "the scan never filled its pipe")
        let result = await child.wait(timeout: .seconds(30))
        Self.measured("stalled one-shot --json signal \(signal)", result.ended - sent)
        #expect(result.exitCode == status, "\(result)")
        #expect(result.ended - sent < .seconds(5), "the scan took \(result.ended - sent) to end\n\(result)")
        let note = try #require(Self.endNote(result), "no end note\n\(result)")
        #expect(note.waiting >= 1 && note.waiting == note.total, "a document drops only at the end\n\(result)")
        #expect(result.stdout.hasPrefix("{") && !result.stdout.hasSuffix("}\n"), "the document was cut\n\(result)")
    }

    @Test(
        "a signal while the command is still reading its replay ends it within the grace period: 143, or 0 for watch",
        arguments: [(["--json"], Int32(143)), (["watch"], Int32(0))])
    func signalBeforeTheCommandRuns(command: [String], status: Int32) async throws {
        let directory = try TestDirectory()
        let replay = try directory.write("slow.json", ReplayWriter.slowToRead)
        let child = try CastScanProcess.start(command + ["--replay", replay])
        let sent = try #require(
            await Self.send(SIGTERM, onceCaughtBy: child), "cast-scan ended before it caught SIGTERM")
        let result = await child.wait(timeout: .seconds(60))
        Self.measured("\(command) reading a 10 MB replay, SIGTERM", result.ended - sent)
        #expect(result.exitCode == status, "\(result)")
        #expect(result.ended - sent < .seconds(5), "took \(result.ended - sent) to end\n\(result)")
        #expect(result.stdoutData.isEmpty, "the command ran\n\(result)")
        #expect(result.stderrData.isEmpty, "\(result)")
    }

    /// Whether a child can run with a resolver that never answers: root, `unshare` and `ip`, for
    /// a network namespace of its own (loopback only: nothing leaves the machine) and a mount
    /// namespace in which `/etc/resolv.conf` names an address routed to loopback, where nothing
    /// answers.
    static let canIsolateResolver =
        geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        && ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip"].contains { FileManager.default.isExecutableFile(atPath: $0) }

    /// Whether the network namespace of process `pid` (its own, here) has a UDP socket
    /// connected to the resolver's 192.0.2.53, port 53: the look-up has sent its query.
    static func isAskingTheResolver(pid: pid_t) -> Bool {
        let table = (try? String(contentsOfFile: "/proc/\(pid)/net/udp", encoding: .utf8)) ?? ""
        return table.contains(String(format: " %08X:%04X ", inet_addr("192.0.2.53"), 53))
    }

    @Test(
        "a signal during a host name look-up that hangs ends the command within the grace period: 143, or 0 for watch",
        .enabled(
            if: canIsolateResolver,
            "needs root, unshare and ip: a private network namespace whose resolver never answers"),
        arguments: [(["--timeout", "60", "--json"], Int32(143)), (["watch"], Int32(0))])
    func slowHostLookup(command: [String], status: Int32) async throws {
        let directory = try TestDirectory()
        // 192.0.2.0/24 is for documentation (RFC 5737); here it leads to loopback, and drops.
        let resolver = try directory.write("resolv.conf", "nameserver 192.0.2.53\noptions timeout:30 attempts:1\n")
        let script =
            #"ip link set lo up && ip route add 192.0.2.0/24 dev lo && mount --bind "$RESOLVER" /etc/resolv.conf && exec "$CAST_SCAN" "$@""#
        let child = try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/unshare"),
            arguments: ["--net", "--mount", "/bin/bash", "-c", script, "bash"] + command + ["--host", "cast.example"],
            extraEnvironment: ["CAST_SCAN": try CastScanProcess.executable().path, "RESOLVER": resolver])
        // cast-scan once the shell has exec'd it, with its handler installed, and its query sent
        // (the resolver waits 30 s for the answer).
        let pid = child.processIdentifier
        let sent = try #require(
            await child.run(when: {
                (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) == "cast-scan\n"
                    && EndToEndWatchTests.catches(SIGTERM, pid: pid) && Self.isAskingTheResolver(pid: pid)
            }) { child.send(SIGTERM) }, "cast-scan never asked the resolver")
        let result = await child.wait(timeout: .seconds(90))
        Self.measured("\(command) looking up a host that never answers, SIGTERM", result.ended - sent)
        #expect(result.exitCode == status, "\(result)")
        #expect(result.ended - sent < .seconds(5), "took \(result.ended - sent) to end\n\(result)")
        #expect(result.stdoutData.isEmpty, "\(result)")
        #expect(result.stderrData.isEmpty, "the look-up ended otherwise\n\(result)")
    }

    @Test(
        "a second signal ends the process at once, by the signal, while the first one's cleanup is stuck",
        arguments: [(SIGTERM, SIGTERM), (SIGINT, SIGTERM), (SIGTERM, SIGINT)])
    func secondSignal(first: Int32, second: Int32) async throws {
        // Stuck: reading a 10 MB replay takes seconds, and only the grace period (500 ms) would
        // end it; the second signal must not wait for that.
        let directory = try TestDirectory()
        let replay = try directory.write("slow.json", ReplayWriter.slowToRead)
        let child = try CastScanProcess.start(["watch", "--replay", replay])
        let sent = try #require(
            await Self.sendTwice(first, then: second, to: child), "cast-scan ended before it caught signal \(first)")
        let result = await child.wait(timeout: .seconds(60))
        Self.measured("second signal \(second) after \(first)", result.ended - sent)
        #expect(
            !result.exitedNormally && !result.timedOut && result.status == second,
            "not ended by the second signal's default action\n\(result)")
        #expect(result.ended - sent < .seconds(5), "took \(result.ended - sent) after the second signal\n\(result)")
    }

    @Test("a signal sent as the process starts is never lost: 20 one-shot scans and 20 watches, each ended at once")
    func signalAtStart() async throws {
        // A replay that never says all-for-now: the scan waits 60 s unless ended. A watch plays a
        // replay in real time and ends at its end: this one's is an hour away.
        let directory = try TestDirectory()
        let endless = try directory.write(
            "endless.json", #"{"version": 1, "events": [{"at": 0, "kind": "state", "state": "running"}]}"#)
        let hour = try directory.write(
            "hour.json",
            #"{"version": 1, "events": [{"at": 0, "kind": "state", "state": "running"}, "#
                + #"{"at": 3600, "kind": "allForNow", "browseType": "_googlecast._tcp"}]}"#)
        var caught = 0
        for run in 1...20 {
            for (command, status) in [
                (["--timeout", "60", "--json", "--replay", endless], Int32(143)),
                (["watch", "--replay", hour], Int32(0)),
            ] {
                // Sent 0 to 38 ms after the spawn: before the handler, before the command, or as it
                // runs. A spread of the moment: every check below holds whenever the signal comes.
                // From a thread of its own: a starved test task once woke after the scan's 60 s.
                let spread = Duration.milliseconds(2 * (run - 1))
                let child = try CastScanProcess.start(command)
                let spawned = ContinuousClock.now
                let signalled = await child.run(when: { ContinuousClock.now - spawned >= spread }) {
                    child.send(SIGTERM)
                }
                let result = await child.wait(timeout: .seconds(60))
                guard let sent = signalled else {
                    Issue.record("run \(run) \(command) ended before the signal\n\(result)")
                    continue
                }
                // Before the handler is installed, the default action ends it; after, the command does.
                let killed = !result.exitedNormally && !result.timedOut && result.status == SIGTERM
                if !killed { caught += 1 }
                #expect(killed || result.exitCode == status, "run \(run) \(command)\n\(result)")
                #expect(
                    result.ended - sent < .seconds(5), "run \(run) \(command): took \(result.ended - sent)\n\(result)")
            }
        }
        print("measured: signal at start: \(caught) of 40 caught by the handler, the rest ended by the default action")
    }

    @Test("a watch with a slow reader keeps its memory bounded: the oldest lines dropped, each batch said, all counted")
    func slowReader() async throws {
        let directory = try TestDirectory()
        let count = 2000
        let replay = try directory.write("busy.json", ReplayWriter.statusChanges(count: count, interval: 0.001))
        let child = try CastScanProcess.startPiped(["watch", "--jsonl", "--replay", replay], measured: true)
        // 1 KiB every 50 ms (about 35 lines a second, against 1,000 written) until the watch
        // says it dropped lines, then everything. The 50 ms is the reader's pace, not a wait for
        // anything: a busy machine only makes the reader slower, which is what is tested.
        let batchPrefix = "cast-scan: standard output is not being read: dropped "
        let deadline = ContinuousClock.now + .seconds(60)
        while child.isRunning, ContinuousClock.now < deadline,
            !((try? String(contentsOf: child.stderrURL, encoding: .utf8)) ?? "").contains(batchPrefix)
        {
            child.readPipe(atMost: 1024)
            try await Task.sleep(for: .milliseconds(50))
        }
        await child.readPipeToEnd()
        let result = await child.wait(timeout: .seconds(60))
        print("measured: slow reader: peak RSS \(result.peakResidentBytes / 1024) KiB, \(result.elapsed)")
        #expect(result.exitCode == 0, "\(result)")
        let lines = result.stdoutLines
        #expect(lines.last?.contains(#""event":"stopped""#) == true, "the replay ran to its end\n\(result)")
        let note = try #require(Self.endNote(result), "no end note\n\(result)")
        #expect(note.waiting == 0, "nothing is left when the reader reads to the end\n\(result)")
        #expect(lines.count + note.total == count + 5, "\(lines.count) lines read, \(note.total) dropped\n\(result)")
        // Batches of drops said as the writer got going again, at most one a second (the end
        // note has the total).
        let batches = result.stderrLines.filter { $0.hasPrefix(batchPrefix) }
        #expect(!batches.isEmpty, "\(result)")
        let said = batches.compactMap { Int($0.dropFirst(batchPrefix.count).split(separator: " ").first ?? "") }.reduce(
            0, +)
        #expect(said > 0 && said <= note.total, "\(result)")
        let seconds = Double(result.elapsed.components.seconds) + 1
        #expect(Double(batches.count) <= seconds, "\(batches.count) notes in \(result.elapsed)\n\(result)")
        #expect(result.stderrLines.count == batches.count + 1, "\(result)")
        // What was read is whole JSON lines; the queue held at most 256 KiB of them.
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
        #expect(result.peakResidentBytes < 256 << 20, "\(result.peakResidentBytes) bytes")
    }

    /// Sends `first` as soon as `child` catches it (cast-scan installs its handler first
    /// thing), then `second` as soon as the first is caught (its handler restores the default
    /// action), and returns when the second was sent: from a thread of its own, so a starved
    /// test pool can neither let the command get past reading its replay nor delay the second
    /// past the grace period. nil if the child ended before it caught `first`.
    static func sendTwice(_ first: Int32, then second: Int32, to child: RunningProcess) async -> ContinuousClock
        .Instant?
    {
        await child.run(when: { EndToEndWatchTests.catches(first, pid: child.processIdentifier) }) {
            child.send(first)
            _ = Eventually.poll(
                until: { !EndToEndWatchTests.catches(second, pid: child.processIdentifier) },
                giveUpIf: { !child.isRunning },
                timeout: .seconds(30), interval: .microseconds(200))
            child.send(second)
        }
    }

    /// Sends `signal` as soon as `child` catches it, from a thread of its own (a starved test
    /// pool cannot let the command get past the step the signal is to interrupt); returns when,
    /// or nil if the child ended first.
    static func send(_ signal: Int32, onceCaughtBy child: RunningProcess) async -> ContinuousClock.Instant? {
        await child.run(when: { EndToEndWatchTests.catches(signal, pid: child.processIdentifier) }) {
            child.send(signal)
        }
    }
}
