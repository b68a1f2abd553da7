import CastChannelTestSupport
import CastTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `cast-scan watch --status`: a kept Cast channel to each device (receivers on loopback that
/// keep their connections, named by a replay that stays running), its lines when what a device
/// plays changes and when it goes and comes back, stored with `--report`.
@Suite("cast-scan watch --status, end to end")
struct EndToEndWatchStatusTests {
    static let idle =
        #"{"applications":[{"appId":"E8C28D3C","displayName":"Backdrop","isIdleScreen":true}],"volume":{"level":0.5}}"#
    static let playing =
        #"{"applications":[{"appId":"CC1AD845","displayName":"Default Media Receiver","statusText":"Big Buck Bunny"}],"volume":{"level":0.25,"muted":true}}"#

    /// A replay of one device at the receiver's port that ends only after 10 minutes.
    static func replay(port: UInt16, in directory: TestDirectory) throws -> String {
        var writer = ReplayWriter(devices: [
            .init(instance: "Kept", friendlyName: "Kept TV", id: "feed", address: "127.0.0.1", port: Int(port))
        ])
        writer.events.append(["at": 600.0, "kind": "allForNow", "browseType": "_googlecast._tcp"])
        return try writer.write(to: directory)
    }

    static func lines(_ watch: RunningProcess) -> [[String: Any]] {
        String(decoding: watch.currentStdout(), as: UTF8.self).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    static func count(_ event: String, in watch: RunningProcess) -> Int {
        lines(watch).filter { $0["event"] as? String == event }.count
    }

    @Test(
        "--jsonl: receiverStatus, a broadcast change, unreachable, reachable; stored with --report; exit 0 on SIGTERM")
    func lines() async throws {
        let receiver = try LoopbackKeptReceiver(status: Self.idle)
        defer { receiver.stop() }
        let directory = try TestDirectory()
        let collector = try await ReportCollector(in: directory)
        let watch = try CastScanProcess.start([
            "watch", "--status", "--jsonl", "--replay", try Self.replay(port: receiver.port, in: directory),
            "--report", collector.url, "--spool", directory.path("spool"),
        ])
        defer { watch.send(SIGKILL) }  // a test that stops early leaves no watch behind
        #expect(
            await Eventually.wait(timeout: .seconds(120)) { Self.count("receiverStatus", in: watch) == 1 },
            "\(watch.currentStderr())")
        receiver.setStatus(Self.playing)
        #expect(
            await Eventually.wait(timeout: .seconds(120)) { Self.count("receiverStatus", in: watch) == 2 },
            "\(watch.currentStderr())")
        receiver.pause()
        #expect(
            await Eventually.wait(timeout: .seconds(120)) { Self.count("unreachable", in: watch) == 1 },
            "\(watch.currentStderr())")
        try receiver.resume()
        #expect(
            await Eventually.wait(timeout: .seconds(120)) { Self.count("reachable", in: watch) == 1 },
            "\(watch.currentStderr())")
        watch.send(SIGTERM)
        let result = await watch.wait(timeout: .seconds(60))
        #expect(result.exitCode == 0, "\(result)")

        let channel = Self.lines(watch).filter {
            ["receiverStatus", "unreachable", "reachable"].contains($0["event"] as? String)
        }
        #expect(
            channel.map { $0["event"] as? String } == [
                "receiverStatus", "receiverStatus", "unreachable", "reachable", "receiverStatus",
            ])
        #expect(
            channel.allSatisfy {
                $0["uniqueID"] as? String == "googlecast:feed" && $0["friendlyName"] as? String == "Kept TV"
            })
        let changed = try #require(channel[1]["receiver"] as? [String: Any])
        let apps = (changed["status"] as? [String: Any])?["applications"] as? [[String: Any]]
        #expect(apps?.first?["statusText"] as? String == "Big Buck Bunny")
        let lost = try #require(channel[2]["receiver"] as? [String: Any])
        #expect(lost["reachable"] as? Bool == false)
        #expect(["closed", "refused"].contains((lost["error"] as? [String: Any])?["code"] as? String))
        // Stored and sent as device events are: the five channel lines among them.
        let sent = try await CastScanProcess.run([
            "report", "send", "--report", collector.url, "--spool", directory.path("spool"),
        ])
        #expect(sent.exitCode == 0, "\(sent)")
        let delivered = collector.entries().compactMap { $0["event"] as? String }
        #expect(
            delivered.filter { ["receiverStatus", "unreachable", "reachable"].contains($0) }.count == 5, "\(delivered)")
    }

    @Test("the lines for people: what plays and its volume, unreachable with the reason, a hostile name escaped")
    func text() async throws {
        let receiver = try LoopbackKeptReceiver(
            status: #"{"applications":[{"appId":"X","displayName":"\u001b[2JEvil"}],"volume":{"level":0.25}}"#)
        defer { receiver.stop() }
        let directory = try TestDirectory()
        let watch = try CastScanProcess.start([
            "watch", "--status", "--replay", try Self.replay(port: receiver.port, in: directory),
        ])
        defer { watch.send(SIGKILL) }
        let shows: @Sendable () -> Bool = {
            String(decoding: watch.currentStdout(), as: UTF8.self).contains("= Kept TV: ")
        }
        #expect(await Eventually.wait(timeout: .seconds(120), until: shows), "\(watch.currentStderr())")
        receiver.pause()
        let lost: @Sendable () -> Bool = {
            String(decoding: watch.currentStdout(), as: UTF8.self).contains("! Kept TV unreachable: ")
        }
        #expect(await Eventually.wait(timeout: .seconds(120), until: lost), "\(watch.currentStderr())")
        watch.send(SIGINT)
        let result = await watch.wait(timeout: .seconds(60))
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdout.contains(#"= Kept TV: \e[2JEvil, volume 25%"#), "\(result.stdout)")
        #expect(HostileOutput.unsafeScalars(in: result.stdout).isEmpty, "a raw control character reached the output")
    }
}
