import CastDiscovery
import Testing

/// Every record in `Fixtures/devices` becomes exactly the device its fixture expects.
@Suite("CastDevice from fixtures")
struct CastDeviceFixtureTests {
    /// The fixtures' file names; a folder that cannot be read, or holds none, fails the tests
    /// that take them instead of running zero cases.
    static func fixtureNames() throws -> [String] {
        let names = try DeviceFixture.all().map(\.fileName)
        guard !names.isEmpty else { throw FixtureSetEmpty(folder: "Fixtures/devices") }
        return names
    }

    @Test("the fixture set covers the real-world and malformed cases")
    func coverage() throws {
        let names = Set(try DeviceFixture.all().map { $0.fileName.replacingOccurrences(of: ".json", with: "") })
        for required in [
            "chromecast", "nest-mini", "group-static", "group-dynamic", "tv-shield", "emulator",
            "nest-audio-cyrillic", "malformed-no-equals", "malformed-duplicate-keys", "malformed-empty-txt",
            "malformed-long-strings", "malformed-truncated-wire", "malformed-invalid-utf8", "malformed-control-chars",
        ] {
            #expect(names.contains(required), "missing fixture \(required)")
        }
    }

    @Test("lenient policy produces the expected device", arguments: try fixtureNames())
    func lenient(fileName: String) throws {
        let fixture = try #require(try DeviceFixture.all().first { $0.fileName == fileName })
        let expected = fixture.expected
        let device = try CastDevice(service: fixture.resolvedService, policy: .lenient)

        #expect(device.id == CastDeviceID(expected.deviceID))
        #expect(device.id.normalized == CastDeviceID(expected.deviceID).normalized)
        #expect(device.friendlyName == expected.friendlyName)
        #expect(device.modelName == expected.model)
        #expect(device.capabilities.rawValue == expected.capabilities)
        #expect(device.kind == expected.kind)
        #expect(device.status.description == expected.status)
        #expect(device.statusText == expected.statusText)
        #expect(device.protocolVersion == expected.protocolVersion)
        #expect(device.iconPath == expected.iconPath)
        #expect(device.undocumentedEntries.map(\.keyString) == expected.undocumentedKeys)
        #expect(device.problems.map(\.code) == expected.problems)
        #expect(device.instanceName == fixture.service.instance)
        #expect(device.hostName == fixture.service.host)
        #expect(device.port == fixture.service.port)
        #expect(device.addresses.map(\.address) == fixture.service.addresses.map(\.address))
        // Nothing published is lost: the whole TXT record is kept.
        #expect(device.txt == fixture.txtRecord)
    }

    @Test("strict policy accepts or rejects as the fixture says", arguments: try fixtureNames())
    func strict(fileName: String) throws {
        let fixture = try #require(try DeviceFixture.all().first { $0.fileName == fileName })
        let expectedRuleProblems = try CastDevice(service: fixture.resolvedService, policy: .lenient)
            .problems.filter(\.violatesReceiverRules)
        do {
            let device = try CastDevice(service: fixture.resolvedService, policy: .strict)
            #expect(fixture.expected.strict == "accepted", "strict accepted \(device.instanceName)")
        } catch {
            #expect(fixture.expected.strict == "rejected", "strict rejected: \(error)")
            #expect(error.reasons == expectedRuleProblems)
            #expect(error.instanceName == fixture.service.instance)
        }
    }
}

@Suite("CastDevice undocumented keys")
struct CastDeviceUndocumentedTests {
    @Test("raw values of undocumented keys, case-insensitive; documented keys are not among them")
    func values() throws {
        let device = try CastDevice(service: try DeviceFixture.named("nest-mini").resolvedService)
        #expect(device.undocumentedValue(forKey: "rm") == .bytes(Array("8B094BD64BF5D14E".utf8)))
        #expect(device.undocumentedValue(forKey: "BS") == .bytes(Array("FA8FCA3A1B2C".utf8)))
        #expect(device.undocumentedValue(forKey: "fn") == nil)
        #expect(device.undocumentedValue(forKey: "zz") == nil)
    }
}

/// A fixture folder that holds no fixture: an error, so parameterised tests do not pass empty.
struct FixtureSetEmpty: Error, CustomStringConvertible {
    var folder: String
    var description: String { "no fixtures in \(folder)" }
}
