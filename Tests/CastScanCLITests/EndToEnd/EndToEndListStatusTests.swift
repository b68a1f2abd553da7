import CastChannelTestSupport
import Foundation
import Testing

/// `cast-scan --status`: the listing asks each device over the Cast channel (here: TLS
/// receivers on loopback, named by a replay) and shows what each said, or why it said nothing.
/// The time-outs are long (8 s: the silent receiver costs that) so that a loaded machine still
/// answers in time; the lab's channel suite holds a listing to its --timeout.
@Suite("cast-scan --status, end to end")
struct EndToEndListStatusTests {
    /// Three devices: one answering, one that never says its status, one whose port is closed.
    struct Receivers {
        let answering: LoopbackReceiver
        let silent: LoopbackReceiver
        let closed: UInt16
        let replay: String
        let directory: TestDirectory

        init() throws {
            closed = try EndToEndStatusTests.closedPort()
            directory = try TestDirectory()
            answering = try LoopbackReceiver(.answer(EndToEndStatusTests.playing))
            do {
                silent = try LoopbackReceiver(.silentAfterTLS)
            } catch {
                answering.stop()
                throw error
            }
            do {
                replay = try Self.replay(answering: answering.port, silent: silent.port, closed: closed, in: directory)
            } catch {
                answering.stop()
                silent.stop()
                throw error
            }
        }

        static func replay(answering: UInt16, silent: UInt16, closed: UInt16, in directory: TestDirectory) throws
            -> String
        {
            try ReplayWriter(devices: [
                .init(
                    instance: "Playing", friendlyName: "A Playing", id: "aa", address: "127.0.0.1", port: Int(answering)
                ),
                .init(instance: "Silent", friendlyName: "B Silent", id: "bb", address: "127.0.0.1", port: Int(silent)),
                .init(instance: "Gone", friendlyName: "C Gone", id: "cc", address: "127.0.0.1", port: Int(closed)),
            ]).write(to: directory)
        }

        func stop() {
            answering.stop()
            silent.stop()
        }

        func list(_ extra: [String]) async throws -> ProcessResult {
            try await CastScanProcess.run(["--replay", replay, "--state", directory.path("state.json")] + extra)
        }
    }

    @Test("--json: each device has a receiver object, its status or its reason; the listing ends at --timeout")
    func json() async throws {
        let receivers = try Receivers()
        defer { receivers.stop() }
        let result = try await receivers.list(["--status", "--json", "--timeout", "8"])
        #expect(result.exitCode == 0, "\(result)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let devices = try #require(document["devices"] as? [[String: Any]])
        try #require(devices.count == 3, "\(result)")
        let receiver = devices.map { $0["receiver"] as? [String: Any] }
        let playing = try #require(receiver[0])
        #expect(playing["reachable"] as? Bool == true)
        #expect(playing["host"] as? String == "127.0.0.1")
        #expect(playing["port"] as? Int == Int(receivers.answering.port))
        let status = try #require(playing["status"] as? [String: Any])
        #expect(
            (status["applications"] as? [[String: Any]])?.first?["displayName"] as? String == "Default Media Receiver")
        #expect((status["volume"] as? [String: Any])?["level"] as? Double == 0.45)
        #expect((receiver[1]?["error"] as? [String: Any])?["code"] as? String == "noStatus", "\(result)")
        #expect((receiver[2]?["error"] as? [String: Any])?["code"] as? String == "refused", "\(result)")
        #expect(receiver[1]?["reachable"] as? Bool == false && receiver[2]?["reachable"] as? Bool == false)
    }

    @Test("the table: APP, VOLUME, REACHABLE and AUTH after STATUS, the reason when unreachable; --no-auth drops AUTH")
    func table() async throws {
        let receivers = try Receivers()
        defer { receivers.stop() }
        let result = try await receivers.list(["--status", "--timeout", "8"])
        #expect(result.exitCode == 0, "\(result)")
        let table = try #require(TableLayout(output: result.stdout), "\(result)")
        #expect(
            table.columnNames == [
                "NAME", "KIND", "MODEL", "ADDRESS", "STATUS", "APP", "VOLUME", "REACHABLE", "AUTH", "CAPABILITIES",
                "ID",
            ])
        for line in [table.header] + table.rows {
            #expect(table.alignmentProblems(of: line).isEmpty, "\(line): \(table.alignmentProblems(of: line))")
        }
        let cells = table.rowCells
        try #require(cells.count == 3, "\(result)")
        #expect(cells[0]["APP"] == "Default Media Receiver")
        #expect(cells[0]["VOLUME"] == "45% muted")
        #expect(cells[0]["REACHABLE"] == "yes")
        #expect(cells[1]["REACHABLE"] == "no: noStatus" && cells[1]["APP"] == "-")
        #expect(cells[2]["REACHABLE"] == "no: refused")
        // The loopback receiver has no Cast key: it answers with an AuthError; the others never
        // opened a channel to ask on.
        #expect(cells[0]["AUTH"] == "authError" && cells[1]["AUTH"] == "noResponse" && cells[2]["AUTH"] == "-")

        let plain = try await receivers.list(["--status", "--no-auth", "--timeout", "8"])
        let plainTable = try #require(TableLayout(output: plain.stdout), "\(plain)")
        #expect(!plainTable.columnNames.contains("AUTH"))
    }

    @Test("without --status: no channel columns, no receiver object, nothing asked")
    func without() async throws {
        let receivers = try Receivers()
        defer { receivers.stop() }
        let json = try await receivers.list(["--json"])
        let devices = try #require(
            (try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])?["devices"] as? [[String: Any]])
        #expect(devices.count == 3 && devices.allSatisfy { $0["receiver"] == nil })
        let text = try await receivers.list([])
        #expect(TableLayout(output: text.stdout)?.columnNames.contains("APP") == false, "\(text)")
        #expect(!receivers.answering.accepted && !receivers.silent.accepted)
    }
}
