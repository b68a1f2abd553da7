import CastChannelTestSupport
import CastTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `cast-scan watch --table`: the table redrawn in place on a terminal (a pseudo-terminal made
/// by util-linux's `script`), with the channel's columns under `--status`; a usage error when
/// standard output is not a terminal.
@Suite("cast-scan watch --table, end to end")
struct EndToEndWatchTableTests {
    /// `cast-scan ARGUMENTS` on a pseudo-terminal of 200 columns and 50 rows; what the terminal
    /// got is its standard output.
    static func onTerminal(_ arguments: [String]) throws -> RunningProcess {
        let command = ([try CastScanProcess.executable().path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try RunningProcess(
            executable: URL(fileURLWithPath: "/usr/bin/script"),
            arguments: ["-qec", "stty cols 200 rows 50; exec \(command)", "/dev/null"])
    }

    static func text(_ process: RunningProcess) -> String { String(decoding: process.currentStdout(), as: UTF8.self) }

    /// The last frame drawn: what follows the last cursor-home.
    static func lastFrame(_ text: String) -> String {
        text.components(separatedBy: "\u{1B}[H").last ?? ""
    }

    @Test("the table is redrawn as the list changes; the last frame stays; exit 0 when the replay ends")
    func redraws() async throws {
        let directory = try TestDirectory()
        var writer = ReplayWriter(devices: [
            .init(instance: "One", friendlyName: "Lounge TV", id: "a1", address: "10.0.0.1"),
            .init(instance: "Two", friendlyName: "Kitchen speaker", id: "b2", address: "10.0.0.2"),
        ])
        writer.events.append([
            "at": 0.6, "kind": "updated",
            "service": [
                "instance": "One", "host": "One.local", "port": 8009,
                "addresses": [["address": "10.0.0.1", "interface": "eth0", "interfaceIndex": 2]],
                "txt": ["id=a1", "fn=Lounge TV", "md=Chromecast", "ca=5", "st=1", "rs=Big Buck Bunny", "ve=05"],
                "browseTypes": ["_googlecast._tcp"],
            ] as [String: Any],
        ])
        let watch = try Self.onTerminal(["watch", "--table", "--replay", try writer.write(to: directory)])
        let result = await watch.wait(timeout: .seconds(120))
        #expect(result.exitCode == 0, "\(result)")
        let frame = Self.lastFrame(Self.text(watch))
        #expect(frame.hasPrefix("cast-scan watch: 2 devices, backend replay"), "\(frame)")
        #expect(
            frame.contains("NAME") && frame.contains("busy: Big Buck Bunny") && frame.contains("Kitchen speaker"),
            "\(frame)")
        #expect(frame.hasSuffix("\u{1B}[J"))
        #expect(Self.text(watch).components(separatedBy: "\u{1B}[H").count > 2, "redrawn, not drawn once")
    }

    @Test("--status adds APP, VOLUME and REACHABLE, filled in as the channel answers")
    func status() async throws {
        let receiver = try LoopbackKeptReceiver(
            status:
                #"{"applications":[{"appId":"CC1AD845","displayName":"Default Media Receiver"}],"volume":{"level":0.45}}"#
        )
        defer { receiver.stop() }
        let directory = try TestDirectory()
        var writer = ReplayWriter(devices: [
            .init(instance: "Kept", friendlyName: "Kept TV", id: "c3", address: "127.0.0.1", port: Int(receiver.port))
        ])
        writer.events.append(["at": 600.0, "kind": "allForNow", "browseType": "_googlecast._tcp"])
        let watch = try Self.onTerminal(["watch", "--table", "--status", "--replay", try writer.write(to: directory)])
        defer { watch.send(SIGKILL) }
        let answered: @Sendable () -> Bool = { Self.lastFrame(Self.text(watch)).contains("Default Media Receiver") }
        #expect(await Eventually.wait(timeout: .seconds(120), until: answered), "\(Self.text(watch))")
        watch.send(SIGTERM)
        _ = await watch.wait(timeout: .seconds(60))
        let frame = Self.lastFrame(Self.text(watch))
        for column in ["APP", "VOLUME", "REACHABLE"] { #expect(frame.contains(column), "\(frame)") }
        #expect(frame.contains("45%") && frame.contains("yes"), "\(frame)")
    }

    @Test("not a terminal, or with --jsonl: a usage error (64)")
    func usage() async throws {
        let piped = try await CastScanProcess.run(["watch", "--table", "--replay", FixturePaths.livingRoom])
        #expect(piped.exitCode == 64 && piped.stderr.contains("needs standard output to be a terminal"), "\(piped)")
        let both = try await CastScanProcess.run(["watch", "--table", "--jsonl", "--replay", FixturePaths.livingRoom])
        #expect(both.exitCode == 64 && both.stderr.contains("cannot be used together"), "\(both)")
    }
}
