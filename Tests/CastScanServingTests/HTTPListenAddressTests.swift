import CastScanServing
import Testing

@Suite struct HTTPListenAddressTests {
    @Test(arguments: [
        ("127.0.0.1:9464", "127.0.0.1:9464", false),
        ("0.0.0.0:0", "0.0.0.0:0", false),
        ("[::1]:9464", "[::1]:9464", false),
        ("[::]:9464", "[::]:9464", true),
        ("[fd00:ca57::2]:65535", "[fd00:ca57::2]:65535", false),
    ])
    func parses(text: String, shown: String, unspecified: Bool) throws {
        let address = try HTTPListenAddress(parsing: text)
        #expect(address.description == shown)
        #expect(address.isIPv6Unspecified == unspecified)
    }

    @Test(arguments: [
        "", "9464", ":9464", "127.0.0.1", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1:+80",
        "localhost:9464", "::1:9464", "[::1:9464", "[]:9464", "[::1]", "256.0.0.1:80", "1.2.3.4:８０",
        "127.0.0.1:9464\u{1b}[2J", String(repeating: "1", count: 100_000) + ":80",
    ])
    func refuses(text: String) {
        #expect(throws: HTTPServerError.invalidListenAddress(text)) { try HTTPListenAddress(parsing: text) }
    }

    @Test func defaultIsLoopback() {
        #expect(HTTPListenAddress.loopbackDefault.description == "127.0.0.1:9464")
    }
}
