@testable import CastScanServing
import Foundation
import Testing

/// The web configuration file as exporter-toolkit 0.8.2 reads it (the whole corpus is checked
/// against promtool by Tests/Scripts/web-config-test.sh; these are the rules one by one).
@Suite("Web configuration: exporter-toolkit's format, read strictly")
struct WebConfigurationTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/web-config")

    /// Writes `text` to a file of its own and reads it.
    private func read(_ text: String) throws -> WebConfiguration {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("web-config-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("web.yml")
        try Data(text.utf8).write(to: file)
        return try WebConfiguration.read(path: file.path)
    }

    private func refusal(_ text: String) -> String? {
        do {
            _ = try read(text)
            return nil
        } catch let error as WebConfigurationError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    @Test("users, headers and http2 as written; nothing else turns TLS on")
    func good() throws {
        let configuration = try read(
            """
            basic_auth_users:
              carol: $2y$10$qRTBuFoULoYNA7AQ/F3ck.trZBPyjV64.oA4ZsSBCIWvXuvQlQTuu
            http_server_config:
              http2: no
              headers:
                X-Frame-Options: sameorigin
            tls_server_config:
              min_version: TLS13
              cipher_suites: [TLS_AES_128_GCM_SHA256]
            """)
        #expect(configuration.users.keys.sorted() == ["carol"])
        #expect(configuration.headers.map(\.name) == ["X-Frame-Options"])
        #expect(configuration.http2 == false && configuration.tls == nil)
        #expect(try read("") == WebConfiguration())
        #expect(try read("# nothing\n") == WebConfiguration())
    }

    @Test(
        "refused, each with its reason",
        arguments: [
            ("foo: 1\n", "the file has no field 'foo'"),
            ("tls_server_config:\n  cert_file: a\n  cert_file: b\n", "sets 'cert_file' twice"),
            ("basic_auth_users:\n  bob: x\n  bob: y\n", "has 'bob' twice"),
            ("- a\n", "the file must be a mapping, not a list"),
            ("http_server_config:\n  http2: maybe\n", "http2 must be true or false"),
            ("tls_server_config:\n  min_version: tls12\n", "unknown TLS version 'tls12'"),
            ("tls_server_config:\n  cipher_suites: [TLS_RSA_WITH_RC4_128_SHA]\n", "unknown cipher suite"),
            ("tls_server_config:\n  curve_preferences: [x25519]\n", "unknown curve 'x25519'"),
            ("http_server_config:\n  headers:\n    Content-Type: x\n", "the header 'Content-Type' cannot be set"),
            ("http_server_config:\n  headers:\n    X-Frame-Options: DENY\n", "must be one of 'deny', 'sameorigin'"),
            ("basic_auth_users:\n  bob: short\n", "too short"),
            ("tls_server_config:\n  key_file: k\n", "cert_file is missing"),
            ("tls_server_config:\n  client_auth_type: RequireAndVerifyClientCert\n", "cert_file is missing"),
            ("basic_auth_users: [bob]\n", "basic_auth_users must be a mapping"),
            ("a: [unclosed\n", "not YAML"),
        ])
    func refused(text: String, reason: String) {
        let message = refusal(text)
        #expect(message?.contains(reason) == true, "\(message ?? "accepted")")
    }

    @Test("a self-referencing alias is bounded, not followed without end")
    func aliasBomb() {
        let bomb =
            "a: &a [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
            + (1...12).map {
                "b\($0): &b\($0) [" + String(repeating: "*b\($0 - 1 == 0 ? 1 : $0 - 1), ", count: 9) + "x]"
            }
            .joined(separator: "\n")
        #expect(refusal(bomb) != nil)
    }

    @Test(
        "bcrypt hashes as Go's bcrypt.Cost reads them",
        arguments: [
            ("$2y$10$qRTBuFoULoYNA7AQ/F3ck.trZBPyjV64.oA4ZsSBCIWvXuvQlQTuu", nil),
            ("$2$10$" + String(repeating: "a", count: 53), nil),
            ("$2y$03$" + String(repeating: "a", count: 53), "cost 3"),
            ("$2y$32$" + String(repeating: "a", count: 53), "cost 32"),
            ("$3y$10$" + String(repeating: "a", count: 53), "version '3'"),
            ("x2y$10$" + String(repeating: "a", count: 53), "start with '$'"),
            ("$2y$ab$" + String(repeating: "a", count: 53), "'ab' is not a number"),
            ("$2y$10$abc", "too short"),
        ] as [(String, String?)])
    func bcrypt(hash: String, problem: String?) {
        let found = BcryptHash.problem(hash)
        if let problem {
            #expect(found?.contains(problem) == true, "\(found ?? "none")")
        } else {
            #expect(found == nil, "\(found ?? "")")
        }
    }

    @Test("a password is checked with libcrypt; a hash it cannot use never matches")
    func passwords() {
        let carol = "$2y$10$qRTBuFoULoYNA7AQ/F3ck.trZBPyjV64.oA4ZsSBCIWvXuvQlQTuu"
        #expect(PasswordCheck.matches("carol123", carol))
        #expect(!PasswordCheck.matches("carol124", carol))
        #expect(!PasswordCheck.matches("carol123", "$2y$10$" + String(repeating: "!", count: 53)))
        #expect(PasswordCheck.matches("fakepassword", PasswordCheck.unknownUserHash))
    }

    @Test("Basic credentials: the scheme in any case, the password may hold colons; anything else is none")
    func credentials() {
        let encoded = Data("carol:pa:ss".utf8).base64EncodedString()
        #expect(WebAccess.credentials("Basic " + encoded).map { [$0.0, $0.1] } == ["carol", "pa:ss"])
        #expect(WebAccess.credentials("basic " + encoded) != nil)
        #expect(WebAccess.credentials("Bearer " + encoded) == nil)
        #expect(WebAccess.credentials("Basic !!!") == nil)
        #expect(WebAccess.credentials("Basic " + Data("nocolon".utf8).base64EncodedString()) == nil)
        #expect(WebAccess.credentials(nil) == nil)
    }

    @Test("the exporter-toolkit key pair loads; a key of another certificate is refused")
    func keyPair() {
        let toolkit = Self.fixtures.appendingPathComponent("exporter-toolkit")
        #expect(throws: Never.self) {
            try TLSKeyPair.check(
                certificateFile: toolkit.appendingPathComponent("server.crt").path,
                keyFile: toolkit.appendingPathComponent("server.key").path)
        }
        #expect(throws: WebConfigurationError.self) {
            try TLSKeyPair.check(
                certificateFile: toolkit.appendingPathComponent("server.crt").path,
                keyFile: toolkit.appendingPathComponent("client2_selfsigned.key").path)
        }
    }
}
