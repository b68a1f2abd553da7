import CastDiscovery
@testable import CastScanCLI
import Foundation
import Testing

@Suite struct FleetTests {
    static func device(_ index: Int, name: String? = nil, busy: Bool = false) -> CastDevice {
        let service = ResolvedService(
            instanceName: "Device-\(index)", hostName: "device-\(index).local", port: 8009,
            addresses: [ServiceAddress("10.0.0.\(index + 1)")!],
            txt: TXTRecord(
                strings: [
                    "id=\(String(format: "%032x", index))", "fn=\(name ?? "Device \(index)")", "md=Chromecast",
                    "ca=5", "st=\(busy ? 1 : 0)", "ve=05",
                ].map { Array($0.utf8) }))
        return (try? CastDevice(service: service)) ?? { preconditionFailure("lenient threw") }()
    }

    private static let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func fleet(forgetAfter: Duration = .seconds(600), goneLimit: Int = 100) -> Fleet {
        Fleet(backend: "replay", reason: "test", started: Self.start, forgetAfter: forgetAfter, goneLimit: goneLimit)
    }

    @Test func aDeviceThatGoesIsKeptAsGoneThenForgotten() {
        var fleet = fleet(forgetAfter: .seconds(60))
        fleet.list([Self.device(1), Self.device(2)], at: Self.start)
        #expect(fleet.listed.map(\.device.friendlyName) == ["Device 1", "Device 2"])
        fleet.list([Self.device(2)], at: Self.start + 10)
        #expect(fleet.listed.map(\.device.friendlyName) == ["Device 2"])
        #expect(fleet.gone.map(\.device.friendlyName) == ["Device 1"])
        #expect(fleet.gone.first?.lastSeen(at: Self.start + 30) == Self.start + 10)
        fleet.forget(at: Self.start + 69)
        #expect(fleet.gone.count == 1)
        fleet.forget(at: Self.start + 70)
        #expect(fleet.gone.isEmpty)
    }

    @Test func aDeviceBackIsListedAgainWithItsFirstSeenKept() throws {
        var fleet = fleet()
        fleet.list([Self.device(1)], at: Self.start)
        fleet.list([], at: Self.start + 5)
        fleet.list([Self.device(1, name: "Renamed")], at: Self.start + 9)
        let member = try #require(fleet.listed.first)
        #expect(member.device.friendlyName == "Renamed")
        #expect(member.firstSeen == Self.start)
        #expect(member.listedSince == Self.start + 9)
        #expect(member.goneAt == nil)
        #expect(fleet.gone.isEmpty)
    }

    @Test func forgetAfterZeroEndsAGoneDeviceAtOnce() {
        var fleet = fleet(forgetAfter: .zero)
        fleet.list([Self.device(1)], at: Self.start)
        fleet.list([], at: Self.start + 1)
        #expect(fleet.gone.isEmpty && fleet.listed.isEmpty)
    }

    @Test func theLongestGoneAreForgottenPastTheLimit() {
        var fleet = fleet(goneLimit: 3)
        fleet.list((0..<10).map { Self.device($0) }, at: Self.start)
        for index in 0..<10 {
            fleet.list((index + 1..<10).map { Self.device($0) }, at: Self.start + Double(index + 1))
        }
        #expect(fleet.listed.isEmpty)
        #expect(fleet.gone.map(\.device.friendlyName) == ["Device 9", "Device 8", "Device 7"])
    }

    @Test func downReasons() {
        var fleet = fleet()
        #expect(!fleet.discoveryUp && fleet.downReason == "the backend is starting")
        fleet.backendState = .running
        #expect(fleet.discoveryUp && fleet.downReason == nil)
        fleet.backendState = .daemonLost
        #expect(fleet.downReason?.contains("daemon went away") == true)
        fleet.backendState = .running
        fleet.stopped = "the backend failed: gone"
        #expect(!fleet.discoveryUp && fleet.downReason == "discovery stopped: the backend failed: gone")
    }
}
