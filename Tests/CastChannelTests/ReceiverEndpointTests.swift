import CastChannel
import Testing

@Suite("HOST[:PORT] of a receiver")
struct ReceiverEndpointTests {
    @Test(
        "addresses, names, IPv6 with and without a port",
        arguments: [
            ("10.0.0.2", "10.0.0.2", 8009), ("10.0.0.2:8010", "10.0.0.2", 8010), ("tv.local", "tv.local", 8009),
            ("tv.local:32000", "tv.local", 32000), ("fe80::1%eth0", "fe80::1%eth0", 8009),
            ("[fe80::1%eth0]:9", "fe80::1%eth0", 9),
            ("[::1]", "::1", 8009),
        ] as [(String, String, UInt16)])
    func good(text: String, host: String, port: UInt16) {
        #expect(ReceiverEndpoint(parsing: text) == ReceiverEndpoint(host: host, port: port))
    }

    @Test(
        "refused: empty, bad ports, open brackets, spaces and controls, names over 253 bytes",
        arguments: [
            "", ":8009", "tv:", "tv:0", "tv:65536", "tv:-1", "tv:80a", "tv:+80", "[::1", "[::1]x", "[tv]:80", "a b",
            "tv\u{1B}[2J", "tv\u{202E}lacol",
            String(repeating: "a", count: 254),
        ])
    func bad(text: String) {
        #expect(ReceiverEndpoint(parsing: text) == nil)
    }

    @Test("said back with brackets around IPv6")
    func description() {
        #expect(ReceiverEndpoint(host: "::1", port: 8009).description == "[::1]:8009")
        #expect(ReceiverEndpoint(host: "tv", port: 1).description == "tv:1")
    }
}
