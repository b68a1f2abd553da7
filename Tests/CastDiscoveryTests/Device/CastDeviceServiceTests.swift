import CastDiscovery
import Testing

@Suite("CastDevice from a resolved service: the first entry of a key counts, in any case; problems in field order")
struct CastDeviceServiceTests {
    private func device(
        _ strings: [String], port: UInt16 = 8009, addresses: [ServiceAddress] = [ServiceAddress("10.0.0.2")!]
    ) -> CastDevice {
        let service = ResolvedService(
            instanceName: "Instance", hostName: "host.local", port: port, addresses: addresses,
            txt: TXTRecord(strings: strings.map { Array($0.utf8) }))
        // Lenient never throws.
        return (try? CastDevice(service: service)) ?? { preconditionFailure("lenient threw") }()
    }

    @Test("keys are matched case-insensitively and only their first entry counts")
    func firstEntryWins() {
        let found = device([
            "ID=0123456789abcdef0123456789abcdef", "fn=First", "FN=Second", "Ve=05", "cA=5", "st=1", "md=Chromecast",
        ])
        #expect(found.id.rawValue == "0123456789abcdef0123456789abcdef")
        #expect(found.friendlyName == "First")
        #expect(found.protocolVersion == 5)
        #expect(found.capabilities.rawValue == 5)
        #expect(found.status == .busy)
        #expect(found.kind == .video)
        #expect(found.problems == [.txt(.duplicateKey(key: "FN", index: 2))])
        #expect(found.undocumentedEntries.isEmpty)
    }

    @Test("numbers: leading zeros, past 2^64, out of range and not digits keep their text in the problem")
    func numbers() {
        #expect(device(["ve=0100"]).problems.contains(.invalidProtocolVersion("0100")))
        #expect(device(["ve=0100"]).protocolVersion == 100)
        #expect(device(["ve=99999999999999999999"]).problems.contains(.invalidProtocolVersion("99999999999999999999")))
        #expect(device(["ve=99999999999999999999"]).protocolVersion == nil)
        #expect(device(["ca=12x"]).problems.contains(.invalidCapabilities("12x")))
        #expect(device(["ca="]).problems.contains(.invalidCapabilities("")))
        #expect(device(["st=2"]).problems.contains(.invalidStatus("2")))
        #expect(device(["st=2"]).status == .unknown)
        #expect(device(["st=0"]).status == .idle)
    }

    @Test("a flag is one value-missing problem, not also missing; an absent key is missing")
    func flags() {
        let flagged = device(["id", "fn", "ve", "ca", "st"])
        #expect(
            flagged.problems == [
                .valueMissing(key: "id"), .valueMissing(key: "fn"), .valueMissing(key: "ve"),
                .valueMissing(key: "ca"), .valueMissing(key: "st"),
            ])
        #expect(flagged.id.rawValue == "Instance" && flagged.friendlyName == "Instance")
        #expect(
            device([], port: 0, addresses: []).problems == [
                .missingID, .missingFriendlyName, .missingProtocolVersion, .missingCapabilities, .missingStatus,
                .zeroPort, .noAddress,
            ])
    }

    @Test("text problems come before the field's own: control characters in ca, invalid UTF-8 in fn")
    func textProblems() {
        let found = device(["fn=A\u{1B}", "ca=\u{7}"])
        #expect(
            found.problems == [
                .missingID, .controlCharacters(key: "fn"), .missingProtocolVersion,
                .controlCharacters(key: "ca"), .invalidCapabilities("\u{7}"), .missingStatus,
            ])
        let service = ResolvedService(
            instanceName: "I", hostName: "h", port: 8009, addresses: [],
            txt: TXTRecord(strings: [Array("fn=".utf8) + [0xFF]]))
        #expect((try? CastDevice(service: service))?.problems.contains(.invalidUTF8(key: "fn")) == true)
    }

    @Test("undocumented entries are everything else, raw, in wire order")
    func undocumented() {
        let found = device(["cd=ABC", "id=x", "rm=", "bs=FA8F", "nf=1", "ic=/i.png"])
        #expect(found.undocumentedEntries.map(\.keyString) == ["cd", "rm", "bs", "nf"])
        #expect(found.undocumentedValue(forKey: "BS") == .bytes(Array("FA8F".utf8)))
        #expect(found.undocumentedValue(forKey: "id") == nil)
    }

    @Test("keeping some addresses: none left adds the no-address problem once")
    func keepingAddresses() {
        let found = device(
            ["id=x", "fn=n", "ve=05", "ca=5", "st=0"],
            addresses: [ServiceAddress("10.0.0.2")!, ServiceAddress("fd00::2")!])
        #expect(found.problems.isEmpty)
        let v6 = found.keepingAddresses { $0.family == .ipv6 }
        #expect(v6.addresses == [ServiceAddress("fd00::2")!] && v6.problems.isEmpty)
        let none = found.keepingAddresses { _ in false }
        #expect(none.addresses.isEmpty && none.problems == [.noAddress])
        #expect(none.keepingAddresses { _ in false }.problems == [.noAddress])
    }
}
