import Testing
import CastDiscovery

@Suite("ServiceInstanceName (DNSSD)")
struct ServiceInstanceNameTests {
    @Test("instance, type and domain build the escaped full name")
    func build() throws {
        let name = ServiceInstanceName(instance: "Living Room", type: .googleCast)
        #expect(name.instance == "Living Room")
        #expect(name.instanceBytes == Array("Living Room".utf8))
        #expect(name.domain == "local")
        #expect(name.escapedInstance == "Living\\032Room")
        #expect(name.escapedFullName == "Living\\032Room._googlecast._tcp.local.")
        #expect(name.description == name.escapedFullName)
        try name.validate()
    }

    @Test("the domain argument wins and subtypes are left out of the full name")
    func domainAndSubtype() {
        let name = ServiceInstanceName(
            instance: "a.b", type: ServiceType.googleCast.subtype("_CC1AD845"), domain: "example.com")
        #expect(name.domain == "example.com")
        #expect(name.type.subtype == "_CC1AD845")
        #expect(name.escapedFullName == "a\\.b._googlecast._tcp.example.com.")
    }

    @Test(
        "parsing escaped full names",
        arguments: [
            ("Living\\032Room._googlecast._tcp.local", "Living Room", "local"),
            ("Living\\032Room._googlecast._tcp.local.", "Living Room", "local"),
            (
                "Chromecast-406c2bcdd5995755059b5bb045326056._googlecast._tcp",
                "Chromecast-406c2bcdd5995755059b5bb045326056", "local"
            ),
            ("Habitaci\\195\\179n\\032principal._googlecast._tcp.local", "Habitación principal", "local"),
            ("a\\.b\\\\c._googlecast._tcp.example.com.", "a.b\\c", "example.com"),
            ("Room._googlecast._tcp.My\\032Net.example", "Room", "My\\032Net.example"),
        ] as [(String, String, String)])
    func parsing(text: String, instance: String, domain: String) throws {
        let name = try ServiceInstanceName(parsingEscaped: text)
        #expect(name.instance == instance)
        #expect(name.type.base == ServiceType.googleCast.inDomain(domain))
        #expect(name.domain == domain)
        #expect(try ServiceInstanceName(parsingEscaped: name.escapedFullName) == name)
    }

    @Test(
        "parsing errors carry offsets in the whole text",
        arguments: [
            ("", DNSSDNameError.emptyName),
            ("._googlecast._tcp", .emptyLabel(offset: 0)),
            ("Room", .missingServiceType(offset: 4)),
            ("Room.", .missingServiceType(offset: 5)),
            ("Room._googlecast", .missingTransport(offset: 16)),
            ("Room._googlecast._xyz", .invalidTransport(offset: 17, label: "_xyz")),
            ("Room.googlecast._tcp", .missingUnderscore(offset: 5, label: "googlecast")),
            ("Ro\\3om._googlecast._tcp", .incompleteDecimalEscape(offset: 2)),
            ("Room._googlecast._tcp.a..b", .emptyLabel(offset: 24)),
            ("Room\\", .trailingBackslash(offset: 4)),
        ])
    func parsingErrors(text: String, error: DNSSDNameError) {
        #expect(throws: error) { try ServiceInstanceName(parsingEscaped: text) }
    }

    @Test("long instance names parse but fail validation")
    func longInstance() throws {
        let long = String(repeating: "n", count: 64)
        let name = try ServiceInstanceName(parsingEscaped: long + "._googlecast._tcp.local")
        #expect(name.instanceBytes.count == 64)
        #expect(throws: DNSSDNameError.labelTooLong(offset: 0, length: 64)) { try name.validate() }
        try ServiceInstanceName(instance: String(long.dropLast()), type: .googleCast).validate()
        #expect(throws: DNSSDNameError.emptyLabel(offset: 0)) {
            try ServiceInstanceName(instance: "", type: .googleCast).validate()
        }
    }

    @Test("raw bytes survive, invalid UTF-8 shows as U+FFFD")
    func rawBytes() throws {
        let name = ServiceInstanceName(instanceBytes: [0x41, 0xFF], type: .googleCast)
        #expect(name.instance == "A\u{FFFD}")
        #expect(name.escapedFullName == "A\\255._googlecast._tcp.local.")
        #expect(try ServiceInstanceName(parsingEscaped: name.escapedFullName).instanceBytes == [0x41, 0xFF])
    }

    @Test("equality ignores ASCII case")
    func equality() {
        let a = ServiceInstanceName(instance: "Room", type: .googleCast)
        let b = ServiceInstanceName(
            instance: "ROOM", type: ServiceType(name: "_GoogleCast", transport: .tcp), domain: "Local")
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        #expect(a != ServiceInstanceName(instance: "Rooms", type: .googleCast))
    }
}
