@testable import CastDiscovery
import Testing

@Suite("DNSName")
struct DNSNameTests {
    @Test("labels are bytes: a dot or a backslash inside a label is data")
    func labelsAreBytes() throws {
        let name = try DNSName(labels: [
            Array("Living.Room\\1".utf8), Array("_googlecast".utf8), Array("_tcp".utf8), Array("local".utf8),
        ])
        #expect(name.labelCount == 4)
        #expect(name.description == #"Living\.Room\\1._googlecast._tcp.local."#)
        #expect(try DNSName(parsing: name.description) == name)
        #expect(name.labels[0] == Array("Living.Room\\1".utf8))
    }

    @Test("equality and hashing ignore ASCII case only")
    func caseInsensitive() throws {
        let a = try DNSName(parsing: "Chromecast-ABC._googlecast._tcp.local")
        let b = try DNSName(parsing: "chromecast-abc._GOOGLECAST._tcp.LOCAL.")
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(try DNSName(parsing: "Ä.local") != DNSName(parsing: "ä.local"))
        #expect(a.hasSuffix(try DNSName(parsing: "_TCP.local")))
        #expect(!a.hasSuffix(try DNSName(parsing: "cp.local")))
        #expect(a.parent == (try DNSName(parsing: "_googlecast._tcp.local")))
        #expect(DNSName.root.parent == nil && DNSName.root.description == ".")
    }

    @Test("empty labels, labels over 63 bytes and names over 255 bytes are refused")
    func limits() throws {
        #expect(throws: DNSNameError.emptyLabel(index: 1)) { try DNSName(labels: [[0x61], []]) }
        #expect(throws: DNSNameError.labelTooLong(index: 0, length: 64)) {
            try DNSName(labels: [Array(repeating: 0x61, count: 64)])
        }
        let label = Array(repeating: UInt8(0x61), count: 63)
        _ = try DNSName(labels: [label, label, label, Array(repeating: 0x61, count: 61)])  // 255 bytes
        #expect(throws: DNSNameError.nameTooLong(length: 256)) {
            try DNSName(labels: [label, label, label, Array(repeating: 0x61, count: 62)])
        }
    }

    @Test("the same service has one identity: DNS names and DNS-SD names convert both ways")
    func serviceNames() throws {
        let instance = ServiceInstanceName(instance: "Living Room.TV", type: .googleCast)
        let name = try DNSName(instance)
        #expect(name.description == #"Living\032Room\.TV._googlecast._tcp.local."#)
        #expect(ServiceInstanceName(dnsName: name) == instance)
        #expect(ServiceKey(dnsName: name) == ServiceKey(name: "Living Room.TV", type: .googleCast, domain: "local"))

        let sub = ServiceType.googleCast.subtype("_CC1AD845")
        let subName = try DNSName(sub)
        #expect(subName.description == "_CC1AD845._sub._googlecast._tcp.local.")
        #expect(ServiceType(dnsName: subName) == sub)
        #expect(ServiceType(dnsName: try DNSName(parsing: "_googlecast._tcp.local")) == .googleCast)
        #expect(ServiceInstanceName(dnsName: subName) == nil, "a subtype name is not an instance")
        #expect(ServiceKey(dnsName: try DNSName(parsing: "host.local")) == nil)
        // avahi's escaped instance text and the DNS name agree.
        let escaped = try ServiceInstanceName(parsingEscaped: #"Living\032Room\.TV._googlecast._tcp.local"#)
        #expect(try DNSName(escaped) == name)
    }
}
