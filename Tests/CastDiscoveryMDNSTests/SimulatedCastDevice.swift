@testable import CastDiscovery

/// The records a Cast device gives for itself, as its mDNS responder sends them: the shared PTR
/// `_googlecast._tcp.local` → `Chromecast-<uuid>._googlecast._tcp.local`, and the unique (cache
/// flush) SRV (port 8009 on `<uuid>.local`), TXT, A and AAAA.
struct SimulatedCastDevice {
    static let serviceName = name(["_googlecast", "_tcp", "local"])

    /// 32 hex digits: the device's id, in its instance name, host name and TXT.
    var uuid: String
    var friendlyName: String
    var port: UInt16 = 8009
    var ipv4: IPv4Address?
    var ipv6: IPv6Address?
    var ttl: UInt32 = 120
    /// The TXT's `st` (0 idle, 1 casting) and `rs` (the running app): what changes while it runs.
    var status = "0"
    var running = ""

    /// `Chromecast-<uuid>._googlecast._tcp.local.`
    var instance: DNSName { Self.name(["Chromecast-\(uuid)", "_googlecast", "_tcp", "local"]) }
    /// `<uuid>.local.`
    var host: DNSName { Self.name([uuid, "local"]) }
    var key: ServiceKey { ServiceKey(name: "Chromecast-\(uuid)", type: .googleCast, domain: "local") }

    var txtStrings: [String] {
        [
            "id=\(uuid)", "cd=5F0E7A1B2C3D4E5F60718293A4B5C6D7", "rm=", "ve=05", "md=Chromecast", "ic=/setup/icon.png",
            "fn=\(friendlyName)", "ca=201221", "st=\(status)", "bs=FA8FCA3C4B5D", "nf=1", "rs=\(running)",
        ]
    }
    var txt: TXTRecord { TXTRecord(strings: txtStrings.map { Array($0.utf8) }) }

    func ptr(ttl: UInt32? = nil) -> DNSResourceRecord {
        DNSResourceRecord(name: Self.serviceName, ttl: ttl ?? self.ttl, data: .ptr(instance))
    }

    func srv(ttl: UInt32? = nil) -> DNSResourceRecord {
        DNSResourceRecord(
            name: instance, cacheFlush: true, ttl: ttl ?? self.ttl,
            data: .srv(priority: 0, weight: 0, port: port, target: host))
    }

    func txtRecord(ttl: UInt32? = nil) -> DNSResourceRecord {
        DNSResourceRecord(name: instance, cacheFlush: true, ttl: ttl ?? self.ttl, data: .txt(txt))
    }

    /// The device's A and AAAA records (those it has).
    func addresses(ttl: UInt32? = nil) -> [DNSResourceRecord] {
        var records: [DNSResourceRecord] = []
        if let ipv4 {
            records.append(DNSResourceRecord(name: host, cacheFlush: true, ttl: ttl ?? self.ttl, data: .a(ipv4)))
        }
        if let ipv6 {
            records.append(DNSResourceRecord(name: host, cacheFlush: true, ttl: ttl ?? self.ttl, data: .aaaa(ipv6)))
        }
        return records
    }

    /// The answer to a PTR question: the PTR, and the SRV, TXT and addresses in the additional
    /// section. `ttl` 0 makes it a goodbye; `id` is the legacy query's id it echoes.
    func answer(id: UInt16 = 0, ttl: UInt32? = nil) -> DNSMessage {
        DNSMessage(
            id: id, flags: DNSMessage.responseFlag | DNSMessage.authoritativeFlag, answers: [ptr(ttl: ttl)],
            additionals: [srv(ttl: ttl), txtRecord(ttl: ttl)] + addresses(ttl: ttl))
    }

    /// A name of labels the fixtures choose (each under 64 bytes).
    static func name(_ labels: [String]) -> DNSName {
        DNSName(validatedWire: labels.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) })
    }

    /// A response carrying `records` in its answer section.
    static func response(id: UInt16 = 0, _ records: [DNSResourceRecord]) -> DNSMessage {
        DNSMessage(id: id, flags: DNSMessage.responseFlag | DNSMessage.authoritativeFlag, answers: records)
    }
}
