import CastChannelTestSupport
import Foundation
import Testing

/// `cast-scan status` asking receivers to authenticate themselves, and `cast-scan auth verify`
/// on what `--save-auth` wrote: loopback receivers that answer as publish's do, with a root of
/// their own. The receivers' certificates are made at the time of the test, since the binary
/// checks at the time of day.
@Suite("Device authentication through cast-scan status and auth verify, end to end")
struct EndToEndDeviceAuthTests {
    static func json(_ result: ProcessResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result)")
    }

    static func auths(_ result: ProcessResult) throws -> [[String: Any]] {
        let receivers = try #require(try json(result)["receivers"] as? [[String: Any]])
        return try receivers.map { try #require($0["auth"] as? [String: Any], "\($0)") }
    }

    @Test("without the receivers' root: untrustedChain, in the JSON and the table, exit 1")
    func untrusted() async throws {
        let receivers = try AuthenticatingReceivers(at: Date())
        defer { receivers.stop() }
        let json = try await CastScanProcess.run(["status", "--json", "127.0.0.1:\(receivers.screenPort)"])
        #expect(json.status == 1, "\(json)")
        let auth = try #require(try Self.auths(json).first)
        #expect(auth["authenticated"] as? Bool == false)
        #expect(auth["failure"] as? String == "untrustedChain")
        #expect((auth["checks"] as? [String: Any])?["signature"] as? String == "passed")
        #expect((auth["checks"] as? [String: Any])?["revocation"] as? String == "notChecked")
        #expect(auth["anchor"] == nil)

        let table = try await CastScanProcess.run(["status", "127.0.0.1:\(receivers.screenPort)"])
        #expect(table.status == 1)
        let lines = table.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(table.stdout)")
        #expect(lines[0].contains(" AUTH "))
        #expect(lines[1].contains("untrustedChain"))
        #expect(lines[2].contains("not authenticated: untrustedChain"))
    }

    @Test("with --cast-root: genuine, the anchor named as a root of your own, a speaker audio-only; exit 0")
    func genuine() async throws {
        let receivers = try AuthenticatingReceivers(at: Date())
        defer { receivers.stop() }
        let directory = try TestDirectory()
        let root = directory.path("root.pem")
        try receivers.writeRoot(to: root)
        let result = try await CastScanProcess.run([
            "status", "--json", "--cast-root", root, "127.0.0.1:\(receivers.screenPort)",
            "127.0.0.1:\(receivers.speakerPort)",
        ])
        #expect(result.status == 0, "\(result)")
        let auths = try Self.auths(result)
        try #require(auths.count == 2)
        #expect(auths.allSatisfy { $0["authenticated"] as? Bool == true && $0["failure"] == nil })
        #expect(auths.allSatisfy { $0["anchorKind"] as? String == "custom" })
        #expect((auths[0]["anchor"] as? String)?.contains("cast-scan publish Root CA") == true)
        #expect(auths[0]["audioOnly"] as? Bool == false && auths[1]["audioOnly"] as? Bool == true)
        #expect(auths[0]["hashAlgorithm"] as? String == "sha256" && auths[0]["nonceEchoed"] as? Bool == true)
        #expect(
            (auths[0]["deviceCertificate"] as? [String: Any])?["subject"] as? String == "CN=Loopback TV,O=cast-scan")

        let table = try await CastScanProcess.run([
            "status", "--cast-root", root, "127.0.0.1:\(receivers.screenPort)", "127.0.0.1:\(receivers.speakerPort)",
        ])
        #expect(table.status == 0)
        #expect(table.stdout.contains("genuine, audio-only"))
        #expect(table.stdout.contains("a root of your own, not Google's"))
        #expect(table.stdout.contains("revocation not checked"))
    }

    @Test("--save-auth, then auth verify: the same verdict; at another time or without the root, another")
    func saveAndVerify() async throws {
        let receivers = try AuthenticatingReceivers(at: Date())
        defer { receivers.stop() }
        let directory = try TestDirectory()
        let root = directory.path("root.pem")
        try receivers.writeRoot(to: root)
        let saved = directory.path("saved")
        let status = try await CastScanProcess.run([
            "status", "--json", "--cast-root", root, "--save-auth", saved, "127.0.0.1:\(receivers.speakerPort)",
        ])
        #expect(status.status == 0, "\(status)")
        var statusAuth = try #require(try Self.auths(status).first)
        let files = try #require(statusAuth.removeValue(forKey: "saved") as? [String: Any])
        let response = try #require(files["response"] as? String)
        let certificate = try #require(files["tlsCertificate"] as? String)
        #expect(response == "\(saved)/127.0.0.1_\(receivers.speakerPort).auth-response.bin")
        #expect(FileManager.default.fileExists(atPath: response) && FileManager.default.fileExists(atPath: certificate))

        let verify = try await CastScanProcess.run([
            "auth", "verify", "--json", "--response", response, "--tls-certificate", certificate, "--cast-root", root,
        ])
        #expect(verify.status == 0, "\(verify)")
        let verified = try #require(try Self.json(verify)["auth"] as? [String: Any])
        let canonical = { (object: [String: Any]) in
            String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        }
        #expect(try canonical(verified) == canonical(statusAuth))

        let text = try await CastScanProcess.run([
            "auth", "verify", "--response", response, "--tls-certificate", certificate, "--cast-root", root,
        ])
        #expect(text.status == 0)
        #expect(text.stdout.hasPrefix("genuine Cast device, audio-only"))
        #expect(
            text.stdout.contains("checks: tlsCertificate passed, signature passed, chain passed, revocation notChecked")
        )

        let untrusted = try await CastScanProcess.run([
            "auth", "verify", "--json", "--response", response, "--tls-certificate", certificate,
        ])
        #expect(untrusted.status == 1)
        #expect((try Self.json(untrusted)["auth"] as? [String: Any])?["failure"] as? String == "untrustedChain")

        let late = try await CastScanProcess.run([
            "auth", "verify", "--json", "--response", response, "--tls-certificate", certificate, "--cast-root", root,
            "--at", Date().addingTimeInterval(5 * 86_400).formatted(.iso8601),
        ])
        #expect(late.status == 1)
        #expect((try Self.json(late)["auth"] as? [String: Any])?["failure"] as? String == "tlsCertificate")
    }

    @Test("auth verify's unreadable input is 65, a bad --at 64; --save-auth with --no-auth is 64")
    func badInput() async throws {
        let directory = try TestDirectory()
        let garbage = try directory.write("garbage.der", "not a certificate")
        let missing = directory.path("missing")
        for arguments in [
            ["--response", missing, "--tls-certificate", garbage],
            ["--response", garbage, "--tls-certificate", garbage],
            ["--response", garbage, "--tls-certificate", missing],
            ["--response", garbage, "--tls-certificate", "/dev/zero"],
            ["--response", garbage, "--tls-certificate", garbage, "--cast-root", garbage],
            ["--response", garbage, "--tls-certificate", garbage, "--cast-crl", garbage],
        ] {
            let result = try await CastScanProcess.run(["auth", "verify"] + arguments)
            #expect(result.status == 65, "\(arguments): \(result)")
            #expect(result.stderr.hasPrefix("cast-scan: "), "\(result.stderr)")
        }
        let at = try await CastScanProcess.run([
            "auth", "verify", "--response", garbage, "--tls-certificate", garbage, "--at", "yesterday",
        ])
        #expect(at.status == 64)
        let conflict = try await CastScanProcess.run([
            "status", "--no-auth", "--save-auth", directory.path("x"), "127.0.0.1",
        ])
        #expect(conflict.status == 64)
    }

    @Test(
        "a command that asks no receiver reads no authentication option: each without --status is 64, naming it",
        arguments: [["--cast-root", "x.pem"], ["watch", "--no-auth"]])
    func authOptionsNeedStatus(arguments: [String]) async throws {
        let result = try await CastScanProcess.run(arguments)
        let option = try #require(arguments.last { $0.hasPrefix("--") })
        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("'\(option)' is used only with '--status'"), "\(result.stderr)")
    }

    @Test("serve reads the authentication options without --status: /probe asks receivers too")
    func serveReadsAuthOptions() async throws {
        let result = try await CastScanProcess.run(["serve", "--cast-crl", "missing.crl", "--check-config"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("--cast-crl missing.crl: no such file"), "\(result.stderr)")
    }

    @Test("--no-auth: no challenge, no auth object, no AUTH column; a receiver without a key is authError")
    func noAuthAndAuthError() async throws {
        let receiver = try LoopbackReceiver(.answer("{}"))
        defer { receiver.stop() }
        let plain = try await CastScanProcess.run(["status", "--no-auth", "--json", "127.0.0.1:\(receiver.port)"])
        #expect(plain.status == 0, "\(plain)")
        let first = try #require((try Self.json(plain)["receivers"] as? [[String: Any]])?.first)
        #expect(first["auth"] == nil)

        let other = try LoopbackReceiver(.answer("{}"))
        defer { other.stop() }
        let asked = try await CastScanProcess.run(["status", "--json", "127.0.0.1:\(other.port)"])
        #expect(asked.status == 1)
        #expect(try Self.auths(asked).first?["failure"] as? String == "authError")
    }
}
