import CastDiscovery
import Foundation

/// A backend that yields a fixed list of events into its ``BackendEventBuffer`` the moment it
/// is started (never waiting, as a backend's thread does), then finishes or holds open.
final class BufferedTestBackend: BufferedDiscoveryBackend {
    let script: [BackendEvent]
    let finishes: Bool
    private let buffers = LockedValue<[BackendEventBuffer]>([])

    init(_ script: [BackendEvent], finishes: Bool = true) {
        self.script = script
        self.finishes = finishes
    }

    /// The buffers of the streams started so far.
    var started: [BackendEventBuffer] { buffers.withLock { $0 } }

    func events(for request: BrowseRequest) throws(DiscoveryError) -> AsyncStream<BackendEvent> {
        try eventBuffer(for: request).stream()
    }

    /// The buffer the script waits in: what a merge or a manager reads directly, so that
    /// ``waitUntilRead(limit:)`` says when they have taken every event.
    func eventBuffer(for request: BrowseRequest) throws(DiscoveryError) -> BackendEventBuffer {
        let buffer = BackendEventBuffer()
        buffers.withLock { $0.append(buffer) }
        script.forEach(buffer.yield)
        if finishes { buffer.finish() }
        return buffer
    }

    /// Waits until every started stream's events have been read (by the merge or the manager
    /// reading it), for at most `limit`: a guard against a hang, checked once more after it (a
    /// full parallel test run on loaded cores has kept this task from running for a minute).
    func waitUntilRead(limit: Duration = .seconds(600)) async -> Bool {
        let deadline = ContinuousClock.now + limit
        func read() -> Bool { !started.isEmpty && started.allSatisfy { $0.bufferedEvents == 0 } }
        while ContinuousClock.now < deadline {
            if read() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return read()
    }
}

/// Backend events as a source sends them while devices come up.
enum StartupScript {
    static let base = TestService.base

    static func key(_ index: Int) -> ServiceKey {
        ServiceKey(name: "Chromecast-\(TestService.uuid(index))", type: .googleCast, domain: "local")
    }

    /// Device `index` as a source reports it: TXT `fn=TV <index>`, port 8009 + `version` (so each
    /// version is a change), with its IPv4 address (on net 10.`ipv4Net`) and, when `ipv6`, its
    /// IPv6 one.
    static func service(_ index: Int, version: Int = 0, ipv6: Bool = true, ipv4Net: UInt8 = 0) -> DiscoveredService {
        var service = made.withLock { made in
            let key = "\(index) \(ipv6) \(ipv4Net)"
            if let known = made[key] { return known }
            let new = make(index, ipv6: ipv6, ipv4Net: ipv4Net)
            made[key] = new
            return new
        }
        service.service.port = 8009 &+ UInt16(truncatingIfNeeded: version)
        return service
    }

    /// The services made so far (making one is slow in a debug build).
    private static let made = LockedValue<[String: DiscoveredService]>([:])

    private static func make(_ index: Int, ipv6: Bool, ipv4Net: UInt8) -> DiscoveredService {
        let uuid = TestService.uuid(index)
        let strings = ["id=\(uuid)", "fn=TV \(index)", "ve=05", "ca=4101", "st=0"]
        var addresses = [
            ServiceAddress("10.\(ipv4Net).\(index / 256).\(index % 256)", interfaceName: "eth0", interfaceIndex: 2)!
        ]
        if ipv6 {
            addresses.append(
                ServiceAddress("fd00::\(String(index, radix: 16))", interfaceName: "eth0", interfaceIndex: 2)!)
        }
        let resolved = ResolvedService(
            instanceName: "Chromecast-\(uuid)", hostName: "\(uuid).local", port: 8009, addresses: addresses,
            txt: TXTRecord(strings: strings.map { Array($0.utf8) }))
        return DiscoveredService(service: resolved, browseTypes: [base])
    }

    static func copy(_ index: Int, _ family: ServiceAddress.Family) -> ServiceCopyKey {
        ServiceCopyKey(service: key(index), interfaceIndex: 2, transport: family)
    }

    /// A start-up of `count` devices as the querier or a daemon sends it, four events each: a
    /// copy on each family, each resolved to its own address; then the browse's cache and
    /// all-for-now.
    static func startup(devices count: Int, ipv4Net: UInt8 = 0) -> [BackendEvent] {
        var events: [BackendEvent] = [.stateChanged(.running), .browseStarted(browseType: base)]
        for index in 0..<count {
            let whole = service(index, ipv4Net: ipv4Net).service
            func resolution(_ family: ServiceAddress.Family) -> ServiceResolution {
                ServiceResolution(
                    hostName: whole.hostName, port: whole.port,
                    addresses: whole.addresses.filter { $0.family == family },
                    txt: whole.txt)
            }
            events += [
                .copyAdded(copy(index, .ipv4), browseType: base), .copyAdded(copy(index, .ipv6), browseType: base),
                .copyResolved(copy(index, .ipv4), resolution(.ipv4), stillAsking: false),
                .copyResolved(copy(index, .ipv6), resolution(.ipv6), stillAsking: false),
            ]
        }
        return events + [.cacheExhausted(browseType: base), .allForNow(browseType: base)]
    }

    /// The services a consumer knows after `events`: found and updated set, removed unset.
    static func mirror(_ events: some Sequence<BackendEvent>, into known: inout [ServiceKey: DiscoveredService]) {
        for event in events {
            switch event {
            case .found(let service), .updated(let service): known[service.key] = service
            case .removed(let service): known[service.key] = nil
            default: break
            }
        }
    }
}
