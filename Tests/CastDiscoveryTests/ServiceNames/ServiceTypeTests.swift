import Testing
import CastDiscovery

@Suite("ServiceType (DNSSD)")
struct ServiceTypeTests {
    @Test("googleCast is _googlecast._tcp in local")
    func googleCast() {
        let type = ServiceType.googleCast
        #expect(type.name == "_googlecast")
        #expect(type.transport == .tcp)
        #expect(type.subtype == nil)
        #expect(type.domain == "local")
        #expect(type.description == "_googlecast._tcp")
        #expect(type.fullName == "_googlecast._tcp.local.")
        #expect(type.dnssdRegistrationType == "_googlecast._tcp")
    }

    @Test("subtypes")
    func subtypes() {
        let type = ServiceType.googleCast.subtype("_CC1AD845")
        #expect(type.subtype == "_CC1AD845")
        #expect(type.isSubtype)
        #expect(type.description == "_CC1AD845._sub._googlecast._tcp")
        #expect(type.fullName == "_CC1AD845._sub._googlecast._tcp.local.")
        #expect(type.dnssdRegistrationType == "_googlecast._tcp,_CC1AD845")
        #expect(type.base == .googleCast)
        #expect(type != .googleCast)
        let namespace = ServiceType.googleCast.subtype("_%9E5E7C8F47989526C9BCD95D24084F6F0B27C5ED")
        #expect(namespace.description == "_\\0379E5E7C8F47989526C9BCD95D24084F6F0B27C5ED._sub._googlecast._tcp")
    }

    @Test(
        "parsing accepted forms",
        arguments: [
            ("_googlecast._tcp", ServiceType.googleCast),
            ("_googlecast._tcp.local", .googleCast),
            ("_googlecast._tcp.local.", .googleCast),
            ("_googlecast._tcp.", .googleCast),
            ("_GoogleCast._TCP.Local.", .googleCast),
            ("_CC1AD845._sub._googlecast._tcp", ServiceType.googleCast.subtype("_CC1AD845")),
            ("_CC1AD845._sub._googlecast._tcp.local.", ServiceType.googleCast.subtype("_CC1AD845")),
            (
                "_%9E5E7C8F47989526C9BCD95D24084F6F0B27C5ED._sub._googlecast._tcp",
                ServiceType.googleCast.subtype("_%9E5E7C8F47989526C9BCD95D24084F6F0B27C5ED")
            ),
            ("_\\0379E._sub._googlecast._tcp", ServiceType.googleCast.subtype("_%9E")),
            ("_spotify-connect._tcp", ServiceType(name: "_spotify-connect", transport: .tcp)),
            ("_a._udp.example.com", ServiceType(name: "_a", transport: .udp, domain: "example.com")),
            ("_abcdefghijklmno._tcp", ServiceType(name: "_abcdefghijklmno", transport: .tcp)),
        ] as [(String, ServiceType)])
    func parsing(text: String, expected: ServiceType) throws {
        let parsed = try ServiceType(parsing: text)
        #expect(parsed == expected)
        #expect(parsed.hashValue == expected.hashValue)
        #expect(try ServiceType(parsing: parsed.fullName) == parsed)
    }

    @Test("parsed parts keep their spelling")
    func parsedParts() throws {
        let parsed = try ServiceType(parsing: "_CC1AD845._sub._googlecast._tcp.example.org.")
        #expect(parsed.name == "_googlecast")
        #expect(parsed.subtype == "_CC1AD845")
        #expect(parsed.domain == "example.org")
        #expect(parsed.fullName == "_CC1AD845._sub._googlecast._tcp.example.org.")
    }

    @Test(
        "parsing rejects malformed types",
        arguments: [
            ("", DNSSDNameError.emptyName),
            ("googlecast._tcp", .missingUnderscore(offset: 0, label: "googlecast")),
            ("_googlecast", .missingTransport(offset: 11)),
            ("_googlecast.", .missingTransport(offset: 12)),
            ("_googlecast._sctp", .invalidTransport(offset: 12, label: "_sctp")),
            ("_googlecast.tcp", .invalidTransport(offset: 12, label: "tcp")),
            ("_googlecast..local", .emptyLabel(offset: 12)),
            ("._googlecast._tcp", .emptyLabel(offset: 0)),
            ("_._tcp", .invalidServiceName(offset: 0, name: "")),
            ("_abcdefghijklmnop._tcp", .serviceNameTooLong(offset: 0, length: 16)),
            ("_google_cast._tcp", .invalidServiceName(offset: 0, name: "google_cast")),
            ("_-cast._tcp", .invalidServiceName(offset: 0, name: "-cast")),
            ("_cast-._tcp", .invalidServiceName(offset: 0, name: "cast-")),
            ("_ca--st._tcp", .invalidServiceName(offset: 0, name: "ca--st")),
            ("_1234._tcp", .invalidServiceName(offset: 0, name: "1234")),
            ("_caf\\195\\169._tcp", .invalidServiceName(offset: 0, name: "café")),
            ("CC1AD845._sub._googlecast._tcp", .missingUnderscore(offset: 0, label: "CC1AD845")),
            ("_._sub._googlecast._tcp", .missingUnderscore(offset: 0, label: "_")),
            ("_CC1AD845._sub", .missingTransport(offset: 14)),
            ("_CC1AD845._sub._googlecast", .missingTransport(offset: 26)),
            ("_googlecast._tcp\\", .trailingBackslash(offset: 16)),
        ])
    func parsingErrors(text: String, error: DNSSDNameError) {
        #expect(throws: error) { try ServiceType(parsing: text) }
    }

    @Test("subtype and domain labels longer than 63 bytes are rejected")
    func longLabels() {
        let long = String(repeating: "x", count: 64)
        #expect(throws: DNSSDNameError.labelTooLong(offset: 0, length: 65)) {
            try ServiceType(parsing: "_\(long)._sub._googlecast._tcp")
        }
        #expect(throws: DNSSDNameError.labelTooLong(offset: 17, length: 64)) {
            try ServiceType(parsing: "_googlecast._tcp.\(long)")
        }
    }

    @Test("equality ignores ASCII case; hashing agrees")
    func caseInsensitive() {
        let a = ServiceType(name: "_GOOGLECAST", transport: .tcp, subtype: "_cc1ad845", domain: "LOCAL")
        let b = ServiceType.googleCast.subtype("_CC1AD845")
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        #expect(a.name == "_GOOGLECAST")
        #expect(a != b.base)
        #expect(b.base != b)
    }

    @Test("domain: trailing dot dropped, empty means local, escaped dot kept")
    func domainNormalisation() {
        #expect(ServiceType(name: "_x", transport: .tcp, domain: "local.").domain == "local")
        #expect(ServiceType(name: "_x", transport: .tcp, domain: "").domain == "local")
        #expect(ServiceType(name: "_x", transport: .tcp, domain: "a\\.").domain == "a\\.")
        #expect(ServiceType(name: "_x", transport: .tcp, domain: "a\\\\.").domain == "a\\\\")
        #expect(ServiceType.googleCast.inDomain("example.com.").fullName == "_googlecast._tcp.example.com.")
    }

    @Test("transport labels", arguments: ServiceTransport.allCases)
    func transport(_ transport: ServiceTransport) {
        #expect(ServiceTransport(label: transport.label) == transport)
        #expect(ServiceTransport(label: transport.label.uppercased()) == transport)
        #expect(transport.label.hasPrefix("_"))
        #expect(ServiceTransport(label: "_sctp") == nil)
    }
}
