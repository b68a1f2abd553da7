import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `cast-scan watch`: live changes until the replay ends or the user interrupts.
@Suite("cast-scan watch, end to end")
struct EndToEndWatchTests {
    @Test("watch --jsonl: every line is JSON, the events come in the recorded order, exit 0 when the replay ends")
    func jsonLines() async throws {
        let directory = try TestDirectory()
        // The living-room recording at four times its speed: the same events, 1.75 s instead of 7.
        let replay = try directory.write(
            "living-room-fast.json", try ReplayWriter.rescaled(FixturePaths.livingRoom, by: 0.25))
        let result = try await CastScanProcess.run(["watch", "--replay", replay, "--jsonl"])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")

        var objects: [[String: Any]] = []
        for line in result.stdoutLines {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                "not a JSON object: \(line)")
            objects.append(object)
        }
        let events = objects.compactMap { $0["event"] as? String }
        #expect(
            events == [
                "backendChosen",  // which backend, and why
                "backend", "backend",
                // TV, Nest Mini, group, group's 2nd name, emulator
                "inserted", "inserted", "inserted", "updated", "inserted",
                "scanCompleted",
                "updated",  // the TV starts YouTube
                "moved",  // Kitchen speaker renamed Attic speaker
                "updated",  // the group's leader moves
                "resolveFailed",
                "removed",  // the emulator leaves
                "stopped",
            ], "\(result)")

        // Times never go backwards.
        let times = objects.compactMap { $0["time"] as? String }
        #expect(times.count == objects.count)
        #expect(times == times.sorted(), "\(times)")

        // Following the indices of every change rebuilds the list as it ends.
        var list: [String] = []
        for object in objects {
            guard let device = object["device"] as? [String: Any], let name = device["friendlyName"] as? String,
                let index = object["index"] as? Int
            else { continue }
            switch object["event"] as? String {
            case "inserted": list.insert(name, at: index)
            case "updated": list[index] = name
            case "moved":
                let to = try #require(object["toIndex"] as? Int)
                list.remove(at: index)
                list.insert(name, at: to)
            case "removed": list.remove(at: index)
            default: Issue.record("unexpected event with a device: \(object)")
            }
        }
        #expect(list == ["Attic speaker", "Downstairs", "Living Room TV"])
        let scan = objects.first { $0["event"] as? String == "scanCompleted" }
        #expect(scan?["detail"] as? String == "scan complete: 4 devices")
    }

    @Test("watch ended by SIGINT after its first output exits 0 at once")
    func interrupted() async throws {
        // The recording, slowed to last 35 s; the interrupt, sent from a thread of its own as the
        // first line arrives, must end it long before.
        let directory = try TestDirectory()
        let slow = try directory.write("slow.json", ReplayWriter.rescaled(FixturePaths.livingRoom, by: 5))
        let child = try CastScanProcess.start(["watch", "--replay", slow])
        let sent = try #require(await child.send(SIGINT, afterFirstLineWithin: .seconds(60)), "watch printed nothing")
        let result = await child.wait(timeout: .seconds(10))
        #expect(result.exitedNormally, "watch died of a signal instead of ending cleanly\n\(result)")
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.ended - sent < .seconds(3), "watch took \(result.ended - sent) to stop\n\(result)")
        #expect(!result.stdout.contains("discovery stopped"), "the replay ran to its end\n\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test(
        "no interrupt is lost: 20 watches, each sent SIGINT or SIGTERM right after its first line, all exit 0 at once",
        arguments: [SIGINT, SIGTERM])
    func noSignalLost(signal: Int32) async throws {
        // The recording at a tenth of its speed (70 s): a lost signal lets the replay run to its
        // end. Each signal is sent from a thread of its own as the first line arrives (a busy test
        // run kept this test's task from running for tens of seconds); the stop is timed by the
        // watch's own waiter thread.
        let directory = try TestDirectory()
        let slow = try directory.write("slow.json", ReplayWriter.rescaled(FixturePaths.livingRoom, by: 10))
        for run in 1...20 {
            let child = try CastScanProcess.start(["watch", "--replay", slow])
            let sent = try #require(
                await child.send(signal, afterFirstLineWithin: .seconds(60)), "run \(run): watch printed nothing")
            let result = await child.wait(timeout: .seconds(90))
            #expect(result.exitCode == 0, "run \(run)\n\(result)")
            #expect(
                result.ended - sent < .seconds(3), "run \(run): watch took \(result.ended - sent) to stop\n\(result)")
            #expect(!result.stdout.contains("discovery stopped"), "run \(run): the signal was lost\n\(result)")
        }
    }

    @Test("watch ended by SIGTERM exits 0 too")
    func terminated() async throws {
        let directory = try TestDirectory()
        let slow = try directory.write("slow.json", ReplayWriter.rescaled(FixturePaths.livingRoom, by: 5))
        let child = try CastScanProcess.start(["watch", "--replay", slow, "--jsonl"])
        let sent = try #require(await child.send(SIGTERM, afterFirstLineWithin: .seconds(60)), "watch printed nothing")
        let result = await child.wait(timeout: .seconds(10))
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.ended - sent < .seconds(3), "\(result)")
        #expect(!result.stdout.contains(#""stopped""#), "the replay ran to its end\n\(result)")
        for line in result.stdoutLines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "not JSON: \(line)")
        }
    }

    @Test("watch rejects a mistyped option and a conflicting address family")
    func usage() async throws {
        let typo = try await CastScanProcess.run(["watch", "--replay", FixturePaths.livingRoom, "--jsonll"])
        #expect(typo.exitCode == 64, "\(typo)")
        #expect(typo.stdoutData.isEmpty, "\(typo)")
        #expect(typo.stderrLines.first == "cast-scan: unknown option '--jsonll' (did you mean '--jsonl'?)", "\(typo)")

        let family = try await CastScanProcess.run(["watch", "--replay", FixturePaths.livingRoom, "-4", "-6"])
        #expect(family.exitCode == 64, "\(family)")
        #expect(
            family.stderrLines == [
                "cast-scan: '-4' and '-6' cannot be used together", "Run 'cast-scan watch --help' for usage.",
            ],
            "\(family)")
    }

    @Test(
        "a one-shot scan ended by SIGINT or SIGTERM exits 130 or 143 at once, as a shell reports it",
        arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func interruptedScan(signal: Int32, status: Int32) async throws {
        // A recording that never says all-for-now: the scan waits for its timeout (60 s) unless ended.
        let directory = try TestDirectory()
        let endless = try directory.write(
            "endless.json", #"{"version": 1, "events": [{"at": 0, "kind": "state", "state": "running"}]}"#)
        let child = try CastScanProcess.start(["--replay", endless, "--timeout", "60", "--json"])
        // Sent once the signal is caught (its bit in SigCgt of /proc/PID/status), from a thread
        // of its own: a starved test task once woke after the scan's 60 s.
        let sent = try #require(
            await child.run(when: { Self.catches(signal, pid: child.processIdentifier) }) { child.send(signal) },
            "the scan ended before it caught the signal")
        let result = await child.wait(timeout: .seconds(90))
        #expect(result.exitCode == status, "\(result)")
        #expect(result.ended - sent < .seconds(3), "\(result)")
    }

    /// Whether process `pid` has a handler for `signal` (SigCgt in /proc/PID/status).
    static func catches(_ signal: Int32, pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigCgt:") }),
            let mask = UInt64(line.dropFirst("SigCgt:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return false }
        return mask & (1 << UInt64(signal - 1)) != 0
    }
}
