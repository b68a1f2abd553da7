import CastChannelTestSupport
import Foundation
import Testing

/// `cast-scan status` against TLS receivers on loopback: what it prints, in JSON and as a
/// table, and its exit status.
@Suite("cast-scan status, end to end")
struct EndToEndStatusTests {
    static let playing =
        #"{"applications":[{"appId":"CC1AD845","displayName":"Default Media Receiver","isIdleScreen":false}],"volume":{"level":0.45,"muted":true},"isStandBy":false}"#

    /// A port nothing listens on: a receiver's, stopped.
    static func closedPort() throws -> UInt16 {
        let receiver = try LoopbackReceiver(.silentAfterTLS)
        receiver.stop()
        return receiver.port
    }

    @Test("one receiver answers, one refuses: each in the JSON with its status or reason; exit 1")
    func json() async throws {
        let answering = try LoopbackReceiver(.answer(Self.playing))
        defer { answering.stop() }
        let closed = try Self.closedPort()
        let result = try await CastScanProcess.run(
            ["status", "--json", "--timeout", "8", "127.0.0.1:\(answering.port)", "127.0.0.1:\(closed)"])
        #expect(result.status == 1, "\(result)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        #expect(document["schemaVersion"] as? Int == 1)
        let receivers = try #require(document["receivers"] as? [[String: Any]])
        try #require(receivers.count == 2)
        let first = receivers[0]
        #expect(first["host"] as? String == "127.0.0.1")
        #expect(first["port"] as? Int == Int(answering.port))
        #expect(first["reachable"] as? Bool == true)
        #expect(first["error"] == nil)
        #expect((first["tls"] as? [String: Any])?["protocol"] as? String == "TLSv1.3")
        for key in ["connectSeconds", "tlsSeconds", "statusSeconds"] { #expect(first[key] is Double, "\(key)") }
        let status = try #require(first["status"] as? [String: Any])
        let apps = try #require(status["applications"] as? [[String: Any]])
        #expect(apps.first?["displayName"] as? String == "Default Media Receiver")
        #expect((status["volume"] as? [String: Any])?["level"] as? Double == 0.45)
        #expect((status["volume"] as? [String: Any])?["muted"] as? Bool == true)
        #expect(status["isStandBy"] as? Bool == false)
        let second = receivers[1]
        #expect(second["reachable"] as? Bool == false)
        #expect((second["error"] as? [String: Any])?["code"] as? String == "refused")
        #expect(second["status"] == nil)
    }

    @Test(
        "the table: the app and the volume; a hostile app name escaped; exit 0 when every receiver answered (not asked to authenticate)"
    )
    func table() async throws {
        let hostile = #"{"applications":[{"appId":"X","displayName":"\u001b[2JEvil\u202e"}],"volume":{"level":0.25}}"#
        let first = try LoopbackReceiver(.answer(Self.playing))
        defer { first.stop() }
        let second = try LoopbackReceiver(.answer(hostile))
        defer { second.stop() }
        let result = try await CastScanProcess.run([
            "status", "--no-auth", "127.0.0.1:\(first.port)", "127.0.0.1:\(second.port)",
        ])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(result.stdout)")
        #expect(lines[0].hasPrefix("RECEIVER"))
        #expect(
            lines[1].contains("Default Media Receiver") && lines[1].contains("45% muted") && lines[1].contains(" yes "))
        #expect(lines[2].contains("Evil") && lines[2].contains("25%"))
        #expect(HostileOutput.unsafeScalars(in: result.stdout).isEmpty, "a raw control character reached the output")
    }

    @Test("a receiver that never answers: noStatus, exit 1")
    func silent() async throws {
        let silent = try LoopbackReceiver(.silentAfterTLS)
        defer { silent.stop() }
        let result = try await CastScanProcess.run(["status", "--json", "--timeout", "3", "127.0.0.1:\(silent.port)"])
        #expect(result.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any])
        let receiver = try #require((document["receivers"] as? [[String: Any]])?.first)
        #expect((receiver["error"] as? [String: Any])?["code"] as? String == "noStatus")
    }

    @Test(
        "no host, a port out of range, a host with a space, a bad time-out: usage errors (64)",
        arguments: [
            ["status"], ["status", "tv:0"], ["status", "tv:65536"], ["status", "a b"],
            ["status", "--timeout", "0", "tv"],
            ["status", "--timeout", "nan", "tv"],
        ])
    func usage(arguments: [String]) async throws {
        let result = try await CastScanProcess.run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stdout.isEmpty)
    }
}
