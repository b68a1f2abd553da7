import CastDiscovery
import Testing

/// Each of Google's receiver rules, broken one at a time from a well-formed record.
@Suite("Validation policies")
struct CastDeviceValidationTests {
    static let good = ["id=406c2bcdd5995755059b5bb045326056", "ve=05", "md=Chromecast", "fn=TV", "ca=4101", "st=0"]

    static func service(txt: [String], port: UInt16 = 8009, addresses: [ServiceAddress] = [ServiceAddress("10.0.0.2")!])
        -> ResolvedService
    {
        ResolvedService(
            instanceName: "Instance", hostName: "host.local", port: port, addresses: addresses,
            txt: TXTRecord(strings: txt.map { Array($0.utf8) }))
    }

    static func replacing(_ key: String, with entry: String?) -> [String] {
        good.compactMap { $0.hasPrefix(key + "=") ? entry : $0 }
    }

    @Test("a well-formed record passes both policies with no problems")
    func wellFormed() throws {
        let strict = try CastDevice(service: Self.service(txt: Self.good), policy: .strict)
        let lenient = try CastDevice(service: Self.service(txt: Self.good))
        #expect(strict == lenient)
        #expect(strict.problems.isEmpty)
    }

    @Test(
        "each broken rule is rejected by strict and recorded by lenient",
        arguments: [
            (replacing("id", with: nil), DeviceProblem.missingID),
            (replacing("id", with: "id="), .missingID),
            (replacing("id", with: "id"), .valueMissing(key: "id")),
            (replacing("fn", with: nil), .missingFriendlyName),
            (replacing("fn", with: "fn="), .missingFriendlyName),
            (replacing("ve", with: nil), .missingProtocolVersion),
            (replacing("ve", with: "ve=1"), .invalidProtocolVersion("1")),
            (replacing("ve", with: "ve=100"), .invalidProtocolVersion("100")),
            (replacing("ve", with: "ve=5a"), .invalidProtocolVersion("5a")),
            (replacing("ve", with: "ve=-5"), .invalidProtocolVersion("-5")),
            (replacing("ca", with: nil), .missingCapabilities),
            (replacing("ca", with: "ca=0x10"), .invalidCapabilities("0x10")),
            (replacing("ca", with: "ca=99999999999999999999999"), .invalidCapabilities("99999999999999999999999")),
            (replacing("st", with: nil), .missingStatus),
            (replacing("st", with: "st=2"), .invalidStatus("2")),
            (replacing("st", with: "st"), .valueMissing(key: "st")),
        ])
    func brokenRule(txt: [String], problem: DeviceProblem) throws {
        let lenient = try CastDevice(service: Self.service(txt: txt))
        #expect(lenient.problems == [problem])
        #expect(problem.violatesReceiverRules)
        #expect(throws: DeviceRejection(instanceName: "Instance", reasons: [problem])) {
            try CastDevice(service: Self.service(txt: txt), policy: .strict)
        }
    }

    @Test("port 0 and no address break the rules")
    func portAndAddress() throws {
        let lenient = try CastDevice(service: Self.service(txt: Self.good, port: 0, addresses: []))
        #expect(lenient.problems == [.zeroPort, .noAddress])
        #expect(throws: DeviceRejection(instanceName: "Instance", reasons: [.zeroPort, .noAddress])) {
            try CastDevice(service: Self.service(txt: Self.good, port: 0, addresses: []), policy: .strict)
        }
    }

    @Test("informational problems never make strict reject")
    func informational() throws {
        let txt = Self.good + ["fn=Second", "x\u{1B}=1", "md", "rs=\u{7}"]
        let device = try CastDevice(service: Self.service(txt: txt), policy: .strict)
        #expect(device.problems.map(\.code) == ["txt-duplicate-key", "txt-duplicate-key", "control-characters"])
        #expect(device.statusText == "\u{7}")
    }

    @Test("a leading-zero version is read as a number")
    func leadingZero() throws {
        #expect(try CastDevice(service: Self.service(txt: Self.good)).protocolVersion == 5)
    }

    @Test("problem codes are unique and messages quote hostile values safely")
    func messages() {
        let problems: [DeviceProblem] = [
            .missingID, .missingFriendlyName, .missingProtocolVersion, .invalidProtocolVersion("x"),
            .missingCapabilities, .invalidCapabilities("x"), .missingStatus, .invalidStatus("x"), .zeroPort,
            .noAddress, .invalidUTF8(key: "fn"), .controlCharacters(key: "fn"), .valueMissing(key: "st"),
            .txt(.truncated(offset: 1, declaredLength: 2, available: 1)), .txt(.emptyString(index: 0)),
            .txt(.emptyKey(index: 0)), .txt(.duplicateKey(key: "fn", index: 1)),
        ]
        #expect(Set(problems.map(\.code)).count == problems.count)
        let hostile = DeviceProblem.invalidStatus("\u{1B}[2J" + String(repeating: "A", count: 1000)).description
        #expect(!hostile.contains("\u{1B}"))
        #expect(hostile.count < 120)
    }
}
