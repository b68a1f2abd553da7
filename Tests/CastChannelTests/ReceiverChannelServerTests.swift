import CastChannel
import CastDiscovery
import CastTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `ReceiverChannelServer` (publish's receivers) on loopback, asked by this package's own
/// sender side (the probe and the monitor; pychromecast asks it in the lab): its status, a
/// broadcast, ports, hostile senders, the connection bound.
@Suite("Receiver channel server")
struct ReceiverChannelServerTests {
    static let idle =
        #"{"applications":[{"appId":"E8C28D3C","displayName":"Backdrop","isIdleScreen":true}],"volume":{"level":0.5,"muted":false},"isStandBy":false}"#
    static let playing =
        #"{"applications":[{"appId":"CC1AD845","displayName":"Default Media Receiver","statusText":"Spotify"}],"volume":{"level":0.3,"muted":false}}"#

    /// A server; senders that never do the handshake are kept 10 minutes unless told otherwise
    /// (a parallel test run can starve a test for longer than the default 10 s).
    static func server(maximumConnections: Int = 256, handshakeTimeout: Duration = .seconds(600)) throws
        -> ReceiverChannelServer
    {
        try ReceiverChannelServer(
            certificate: try TLSCertificate(commonName: "cast-scan test receiver"),
            maximumConnections: maximumConnections,
            handshakeTimeout: handshakeTimeout)
    }

    @Test("a probe reads each receiver's status over TLS, each on a port of its own")
    func status() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let first = try server.listen(receiver: 0, addresses: ["127.0.0.1"], port: 0, status: Self.idle)
        // The same port asked again: taken, so another one.
        let second = try server.listen(receiver: 1, addresses: ["127.0.0.1"], port: first, status: Self.playing)
        #expect(first != second && first != 0 && second != 0)
        try server.start()
        let one = await ReceiverProbe.probe(host: "127.0.0.1", port: first, timeout: .seconds(30))
        #expect(one.isReachable, "\(one)")
        #expect(one.status?.applications?.first?.displayName == "Backdrop")
        #expect(one.tls?.protocol == "TLSv1.3")
        let two = await ReceiverProbe.probe(host: "127.0.0.1", port: second, timeout: .seconds(30))
        #expect(two.status?.applications?.first?.statusText == "Spotify" && two.status?.volume?.level == 0.3)
    }

    @Test("a status change is broadcast to a kept channel")
    func broadcast() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let port = try server.listen(receiver: 0, addresses: ["127.0.0.1"], port: 0, status: Self.idle)
        try server.start()
        let states = ReceiverStates()
        let monitor = try ReceiverMonitor(states: states)
        defer { monitor.stop() }
        try monitor.start()
        let device = try CastDevice(
            service: ResolvedService(
                instanceName: "Sim", hostName: "sim.local", port: port,
                addresses: [try #require(ServiceAddress("127.0.0.1"))],
                txt: ["id=51", "fn=Sim", "ve=05", "ca=5", "st=0"]))
        monitor.watch(device)
        #expect(
            await Eventually.wait(timeout: .seconds(60)) {
                states.entry(for: device.uniqueID)?.result.isReachable == true
            })
        server.setStatus(receiver: 0, status: Self.playing)
        #expect(
            await Eventually.wait(timeout: .seconds(60)) {
                states.entry(for: device.uniqueID)?.result.status?.applications?.first?.statusText == "Spotify"
            })
        #expect(server.connectionCount == 1)
    }

    @Test("hostile senders (garbage, a 2 GiB length, plain text) are closed; the server goes on answering")
    func hostile() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let port = try server.listen(receiver: 0, addresses: ["127.0.0.1"], port: 0, status: Self.idle)
        try server.start()
        for bytes in [
            [UInt8](repeating: 0xFF, count: 64), [0x80, 0, 0, 0] + [UInt8](repeating: 0, count: 60),
            Array("GET / HTTP/1.1\r\n\r\n".utf8),
        ] {
            let closed = try Self.sendRaw(bytes, port: port)
            #expect(closed, "the server closed the connection")
        }
        let after = await ReceiverProbe.probe(host: "127.0.0.1", port: port, timeout: .seconds(30))
        #expect(after.isReachable, "\(after)")
    }

    @Test("past maximumConnections a sender is closed at once; the others are served")
    func bounded() async throws {
        let server = try Self.server(maximumConnections: 2)
        defer { server.stop() }
        let port = try server.listen(receiver: 0, addresses: ["127.0.0.1"], port: 0, status: Self.idle)
        try server.start()
        let held = try (0..<2).map { _ in try Self.connect(port: port) }
        defer { held.forEach { close($0) } }
        #expect(await Eventually.wait(timeout: .seconds(60)) { server.connectionCount == 2 })
        let third = try Self.connect(port: port)
        defer { close(third) }
        #expect(Self.readsEnd(third), "the third sender is closed")
        #expect(server.connectionCount == 2)
    }

    @Test("a sender that never does the TLS handshake is closed after the handshake time-out")
    func handshakeTimeout() async throws {
        let server = try Self.server(handshakeTimeout: .milliseconds(200))
        defer { server.stop() }
        let port = try server.listen(receiver: 0, addresses: ["127.0.0.1"], port: 0, status: Self.idle)
        try server.start()
        let idle = try Self.connect(port: port)
        defer { close(idle) }
        #expect(Self.readsEnd(idle), "closed by the server")
        #expect(await Eventually.wait(timeout: .seconds(60)) { server.connectionCount == 0 })
    }

    @Test("a sender silent past the idle time-out is closed (a kept channel then says closed)")
    func idle() async throws {
        let server = try ReceiverChannelServer(
            certificate: try TLSCertificate(commonName: "cast-scan test receiver"), idleTimeout: .milliseconds(300))
        defer { server.stop() }
        let port = try server.listen(receiver: 0, addresses: ["127.0.0.1"], port: 0, status: Self.idle)
        try server.start()
        #expect(throws: CastChannelError.self) {
            _ = try server.listen(receiver: 1, addresses: ["127.0.0.1"], port: 0, status: Self.idle)
        }
        let monitor = try ReceiverMonitor(states: ReceiverStates())  // PINGs every 5 s: silent for longer than 300 ms
        defer { monitor.stop() }
        try monitor.start()
        var events = monitor.events.makeAsyncIterator()
        monitor.watch(
            try CastDevice(
                service: ResolvedService(
                    instanceName: "Idle", hostName: "idle.local", port: port,
                    addresses: [try #require(ServiceAddress("127.0.0.1"))],
                    txt: ["id=1d1e", "fn=Idle", "ve=05", "ca=5", "st=0"])))
        guard case .status? = await events.next() else { Issue.record("no status"); return }
        let closed = await events.next()
        guard case .unreachable(_, let result)? = closed else { Issue.record("\(String(describing: closed))"); return }
        #expect(result.error?.code == .closed)
    }

    /// Connects to 127.0.0.1:`port`.
    static func connect(port: UInt16) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { close(descriptor); throw POSIXError(.ECONNREFUSED) }
        return descriptor
    }

    /// Whether the peer ends the connection (a read gives 0 or a reset) within 30 s.
    static func readsEnd(_ descriptor: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let deadline = ContinuousClock.now + .seconds(30)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            guard poll(&entry, 1, 100) >= 0 else { return false }
            guard entry.revents != 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { return true }
        }
        return false
    }

    /// Sends `bytes` on a new connection; whether the server then ends it.
    static func sendRaw(_ bytes: [UInt8], port: UInt16) throws -> Bool {
        let descriptor = try connect(port: port)
        defer { close(descriptor) }
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return readsEnd(descriptor)
    }
}
