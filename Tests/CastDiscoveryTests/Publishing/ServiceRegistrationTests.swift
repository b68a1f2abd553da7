import CastDiscovery
import Testing

@Suite("Service registrations: what a daemon can be asked to publish")
struct ServiceRegistrationTests {
    static let good = ServiceRegistration(
        instanceName: "Chromecast-406c2bcdd5995755059b5bb045326056", serviceType: "_googlecast._tcp",
        subtypes: ["_CC1AD845", "_233637DE"], port: 8009,
        txt: [TXTEntry("id=406c2bcdd5995755059b5bb045326056"), TXTEntry("fn=Living Room")])

    static func message(_ registration: ServiceRegistration) -> String? {
        do throws(DiscoveryError) {
            try registration.validate()
            return nil
        } catch {
            #expect(error.kind == .badInput)
            return error.message
        }
    }

    @Test("a real device's registration passes, with its subtypes' browse types")
    func good() {
        #expect(Self.message(Self.good) == nil)
        #expect(Self.good.subtypeBrowseType("_CC1AD845") == "_CC1AD845._sub._googlecast._tcp")
    }

    @Test("a TXT string of 255 bytes passes; 256 and 0 bytes are refused, saying which and how long")
    func txtLengths() throws {
        var registration = Self.good
        registration.txt = [TXTEntry("fn=" + String(repeating: "a", count: 252))]
        #expect(Self.message(registration) == nil)
        registration.txt = [TXTEntry("fn=" + String(repeating: "a", count: 253))]
        let long = try #require(Self.message(registration))
        #expect(long.contains("256 bytes") && long.contains("1 to 255") && long.contains("fn=aaa"))
        registration.txt = [TXTEntry(bytes: [])]
        #expect(Self.message(registration)?.contains("0 bytes") == true)
    }

    @Test("a TXT record over 1300 bytes is refused")
    func txtTotal() throws {
        var registration = Self.good
        registration.txt = (0..<6).map { TXTEntry("k\($0)=" + String(repeating: "v", count: 250)) }
        #expect(try #require(Self.message(registration)).contains("more than 1300"))
    }

    @Test("instance names: 63 bytes pass, 64 and empty are refused, and so are control characters (C0, DEL, C1)")
    func instanceNames() {
        var registration = Self.good
        registration.instanceName = String(repeating: "é", count: 31) + "a"  // 63 bytes
        #expect(Self.message(registration) == nil)
        registration.instanceName = String(repeating: "é", count: 32)
        #expect(Self.message(registration)?.contains("64 bytes") == true)
        registration.instanceName = ""
        #expect(Self.message(registration) != nil)
        for name in ["a\u{0}b", "a\nb", "a\u{7F}", "a\u{85}b", "\u{9B}31m"] {
            registration.instanceName = name
            #expect(
                Self.message(registration)?.contains("control character") == true, "\(name.unicodeScalars.map(\.value))"
            )
        }
    }

    @Test("port 0, a subtype without its underscore or with a dot or a space, and too many subtypes are refused")
    func portsAndSubtypes() {
        var registration = Self.good
        registration.port = 0
        #expect(Self.message(registration)?.contains("port 0") == true)
        for subtype in ["CC1AD845", "_a.b", "_a b", "_", "_" + String(repeating: "x", count: 63)] {
            registration = Self.good
            registration.subtypes = [subtype]
            #expect(Self.message(registration) != nil, "\(subtype)")
        }
        registration = Self.good
        registration.subtypes = (0..<17).map { "_A\($0)" }
        #expect(Self.message(registration)?.contains("17 subtypes") == true)
    }

    @Test("the service and its subtypes on every interface chosen fit avahi's 32 entries a group")
    func entriesPerGroup() {
        var registration = Self.good
        registration.subtypes = (0..<15).map { "_A\($0)" }
        registration.interfaceIndexes = [1, 2]
        #expect(Self.message(registration) == nil)  // 16 x 2
        registration.subtypes.append("_B")
        #expect(Self.message(registration)?.contains("34 records to publish") == true)
    }
}
