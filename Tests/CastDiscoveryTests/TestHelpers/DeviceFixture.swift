import CastDiscovery
import Foundation

/// A real-world or malformed record from `Fixtures/devices`, with the device the core must make.
struct DeviceFixture: Decodable {
    struct Address: Decodable {
        var address: String
        var interface: String?
    }

    struct Service: Decodable {
        var instance: String
        var host: String
        var port: UInt16
        var addresses: [Address]
        var txt: [String]?
        var txtHex: [String]?
        var txtWireHex: String?
        var subtypes: [String]
    }

    struct Expected: Decodable {
        var deviceID: String
        var friendlyName: String
        var model: String?
        var capabilities: UInt64
        var kind: CastDeviceKind
        var status: String
        var statusText: String?
        var protocolVersion: Int?
        var iconPath: String?
        var undocumentedKeys: [String]
        var problems: [String]
        var strict: String
    }

    var description: String
    var service: Service
    var expected: Expected
    var fileName = ""

    enum CodingKeys: String, CodingKey { case description, service, expected }

    /// The TXT record the fixture describes, from whichever form it is written in.
    var txtRecord: TXTRecord {
        if let wire = service.txtWireHex { return TXTRecord(wireFormat: Self.bytes(hex: wire)) }
        if let hex = service.txtHex { return TXTRecord(strings: hex.map(Self.bytes(hex:))) }
        return TXTRecord(strings: (service.txt ?? []).map { Array($0.utf8) })
    }

    var resolvedService: ResolvedService {
        ResolvedService(
            instanceName: service.instance,
            hostName: service.host,
            port: service.port,
            addresses: service.addresses.map { ServiceAddress($0.address, interfaceName: $0.interface)! },
            txt: txtRecord
        )
    }

    static func bytes(hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var chars = Array(hex.utf8)[...]
        while chars.count >= 2 {
            out.append(UInt8(String(decoding: chars.prefix(2), as: UTF8.self), radix: 16)!)
            chars = chars.dropFirst(2)
        }
        return out
    }

    /// The package's `Fixtures` folder, found from this source file's path.
    static let fixturesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// Every fixture in `Fixtures/devices`, by file name.
    static func all() throws -> [DeviceFixture] {
        let dir = fixturesDirectory.appendingPathComponent("devices")
        let names = try FileManager.default.contentsOfDirectory(atPath: dir.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        return try names.map { name in
            var fixture = try JSONDecoder().decode(
                DeviceFixture.self, from: Data(contentsOf: dir.appendingPathComponent(name)))
            fixture.fileName = name
            return fixture
        }
    }

    static func named(_ name: String) throws -> DeviceFixture {
        guard let fixture = try all().first(where: { $0.fileName == name + ".json" }) else {
            throw FixtureError.missing(name)
        }
        return fixture
    }

    enum FixtureError: Error { case missing(String) }
}
