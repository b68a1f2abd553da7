import CastDiscovery

#if canImport(Glibc)
import Glibc
#endif

/// The Cast channel of simulated receivers (`cast-scan publish`): for each, TLS on a port of
/// its own with a certificate made at start, answering as a receiver does (PONG, its status
/// for GET_STATUS) and broadcasting its status when it changes, so a sender such as
/// pychromecast, Home Assistant or a test suite can connect to it.
///
/// A receiver given a ``DeviceAuthIdentity`` answers the device-authentication challenge with
/// it; one without answers with an AuthError (INTERNAL_ERROR), so no sender waits for it. A sender that checks (the Cast SDK,
/// Chrome, `cast-scan status`) trusts the answer only with the identity's root.
///
/// One poll loop on a thread of its own serves every receiver. Bounded: at most
/// ``maximumConnections`` senders at once (more are closed on arrival), frames as the channel
/// bounds them, a handshake within ``handshakeTimeout``, no silence longer than ``idleTimeout``.
public final class ReceiverChannelServer: Sendable {
    /// The most sender connections open at once, over every receiver.
    public let maximumConnections: Int
    /// How long a sender may take for the TLS handshake before it is closed.
    public let handshakeTimeout: Duration
    /// How long a sender may stay silent (senders PING every 5 s) before it is closed.
    public let idleTimeout: Duration

    private let context: TLSContext
    /// The certificate presented (DER): what a device-authentication answer signs.
    private let certificateDER: [UInt8]
    private let loop: PollLoop
    private let shared = LockedValue<Shared>(Shared())

    private struct Shared {
        var statuses: [Int: String] = [:]
        var identities: [Int: DeviceAuthIdentity] = [:]
        var broadcasts: [Int] = []
        var listeners: [(receiver: Int, descriptor: Int32)] = []
        var started = false
        var connections = 0
    }

    /// Creates a server presenting `certificate`; nothing listens before
    /// ``listen(receiver:addresses:port:status:identity:)``.
    ///
    /// - Throws: ``CastChannelError`` when the certificate cannot be used or the loop made.
    public init(
        certificate: TLSCertificate, maximumConnections: Int = 256, handshakeTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(30)
    ) throws(CastChannelError) {
        context = try TLSContext.server(certificate)
        certificateDER = certificate.der
        self.maximumConnections = max(1, maximumConnections)
        self.handshakeTimeout = max(.milliseconds(1), handshakeTimeout)
        self.idleTimeout = max(.milliseconds(1), idleTimeout)
        do {
            loop = try PollLoop()
        } catch {
            throw CastChannelError(.closed, "cannot make the server's loop: \(error.message)")
        }
    }

    /// Listens for `receiver` on each of `addresses` (numeric; empty for every address of
    /// both families) at `port` when it is free on all of them, else at a port the system
    /// chooses (the same on all). `status` is its RECEIVER_STATUS status object (JSON);
    /// `identity`, what it answers the device-authentication challenge with. Before
    /// ``start()`` only. Returns the port.
    ///
    /// - Throws: ``CastChannelError`` (`refused`) when no port can be had, or the server has
    ///   started or stopped.
    public func listen(
        receiver: Int, addresses: [String], port: UInt16, status: String, identity: DeviceAuthIdentity? = nil
    ) throws(CastChannelError) -> UInt16 {
        guard !shared.withLock({ $0.started }) else {
            throw CastChannelError(.refused, "the server is running already")
        }
        let hosts = addresses.isEmpty ? ["0.0.0.0", "::"] : addresses
        var descriptors: [Int32] = []
        do {
            descriptors = try Self.bind(hosts, port: port)
        } catch {
            descriptors = try Self.bind(hosts, port: 0)
        }
        let chosen = Self.port(of: descriptors[0])
        shared.withLock { shared in
            shared.statuses[receiver] = status
            shared.identities[receiver] = identity
            shared.listeners += descriptors.map { (receiver, $0) }
        }
        return chosen
    }

    /// Changes `receiver`'s status (JSON) and broadcasts it to every sender connected to it;
    /// nothing when it is the status it has.
    public func setStatus(receiver: Int, status: String) {
        let changed = shared.withLock { shared -> Bool in
            guard shared.statuses[receiver] != status else { return false }
            shared.statuses[receiver] = status
            shared.broadcasts.append(receiver)
            return true
        }
        if changed { loop.wake() }
    }

    /// How many senders are connected now.
    public var connectionCount: Int { shared.withLock { $0.connections } }

    /// Starts serving on a thread of its own. Once only.
    ///
    /// - Throws: ``CastChannelError`` when no thread can be started.
    public func start() throws(CastChannelError) {
        let listeners = shared.withLock { shared -> [(receiver: Int, descriptor: Int32)]? in
            guard !shared.started else { return nil }
            shared.started = true
            return shared.listeners
        }
        guard let listeners else { return }
        let loop = self.loop
        do {
            try LoopThread.start { [self] in
                let owner = ServerLoop(server: self, listeners: listeners)
                _ = loop.run(owner)
                owner.closeAll()
            }
        } catch {
            listeners.forEach { _ = Glibc.close($0.descriptor) }
            throw CastChannelError(.closed, "cannot start the server's thread: \(error.reason)")
        }
    }

    /// Closes every connection and listener (within a poll round).
    public func stop() {
        let unstarted = shared.withLock { shared -> [Int32] in
            guard !shared.started else { return [] }
            shared.started = true
            defer { shared.listeners = [] }
            return shared.listeners.map(\.descriptor)
        }
        unstarted.forEach { _ = Glibc.close($0) }
        loop.stop()
    }

    fileprivate var pollLoop: PollLoop { loop }
    fileprivate var tlsContext: TLSContext { context }

    fileprivate func status(of receiver: Int) -> String {
        shared.withLock { $0.statuses[receiver] ?? "{}" }
    }

    /// `receiver`'s answer to a device-authentication challenge: an AuthError when it has no
    /// identity.
    fileprivate func authenticate(_ receiver: Int, challenge: [UInt8]) -> [UInt8] {
        guard let identity = shared.withLock({ $0.identities[receiver] }) else {
            return DeviceAuthMessage(error: .internalError).encoded()
        }
        return identity.answer(challenge, tlsCertificate: certificateDER)
    }

    fileprivate func takeBroadcasts() -> [Int] {
        shared.withLock { shared in
            defer { shared.broadcasts = [] }
            return shared.broadcasts
        }
    }

    fileprivate func setConnectionCount(_ count: Int) {
        shared.withLock { $0.connections = count }
    }

    /// Listening sockets at `port` on every host (all closed when one cannot be had).
    private static func bind(_ hosts: [String], port: UInt16) throws(CastChannelError) -> [Int32] {
        var descriptors: [Int32] = []
        var chosen = port
        for host in hosts {
            do {
                let descriptor = try listener(host: host, port: chosen)
                descriptors.append(descriptor)
                if chosen == 0 { chosen = Self.port(of: descriptor) }
            } catch {
                descriptors.forEach { _ = Glibc.close($0) }
                throw error
            }
        }
        return descriptors
    }

    private static func listener(host: String, port: UInt16) throws(CastChannelError) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let list else {
            throw CastChannelError(.resolve, "\(SafeText.quoted(host)) is not an address")
        }
        defer { freeaddrinfo(list) }
        let address = list.pointee
        let descriptor = socket(
            address.ai_family,
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw CastChannelError(.refused, "socket: \(systemErrorMessage(errno))") }
        var yes: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if address.ai_family == AF_INET6 {
            _ = setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        guard Glibc.bind(descriptor, address.ai_addr, address.ai_addrlen) == 0, Glibc.listen(descriptor, 64) == 0 else {
            let error = errno
            _ = Glibc.close(descriptor)
            throw CastChannelError(.refused, "cannot listen on \(host) port \(port): \(systemErrorMessage(error))")
        }
        return descriptor
    }

    private static func port(of descriptor: Int32) -> UInt16 {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer in
            family == sa_family_t(AF_INET6)
                ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
                : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin_port)
                }
        }
    }
}

/// The server's state, owned by its loop's thread: the listeners and the connections.
private final class ServerLoop: PollLoopOwner {
    private unowned let server: ReceiverChannelServer
    private let loop: PollLoop
    private var listeners: [(receiver: Int, descriptor: Int32, token: PollLoop.Token)] = []
    private var channels: [ObjectIdentifier: ServedChannel] = [:]
    /// Out of descriptors (`EMFILE`): the listeners rest until then, or they would be ready
    /// at every poll.
    private var listenersResting: ContinuousClock.Instant?
    /// How long the listeners rest when the process is out of descriptors.
    static let restAfterDescriptorShortage: Duration = .seconds(1)

    init(server: ReceiverChannelServer, listeners: [(receiver: Int, descriptor: Int32)]) {
        self.server = server
        loop = server.pollLoop
        for (receiver, descriptor) in listeners {
            let token = loop.register(descriptor, name: "the Cast channel listener of receiver \(receiver)") {
                [unowned self] _ in
                self.accept(receiver: receiver, on: descriptor)
            }
            self.listeners.append((receiver, descriptor, token))
        }
    }

    func nextDeadline() -> ContinuousClock.Instant? {
        (channels.values.map(deadline) + [listenersResting].compactMap { $0 }).min()
    }

    /// When `channel` is closed unless it is heard from: its handshake's end, or its silence's.
    private func deadline(_ channel: ServedChannel) -> ContinuousClock.Instant {
        channel.isSecured ? channel.lastHeard + server.idleTimeout : channel.accepted + server.handshakeTimeout
    }

    func tick(at now: ContinuousClock.Instant) {
        for receiver in Set(server.takeBroadcasts()) {
            let status = server.status(of: receiver)
            for channel in channels.values where channel.receiver == receiver { channel.broadcast(status) }
        }
        for channel in channels.values where now >= deadline(channel) { channel.close() }
        if let resting = listenersResting, now >= resting {
            listenersResting = nil
            listeners.forEach { loop.watch($0.token, for: Int16(POLLIN)) }
        }
        sweep()
    }

    func closeAll() {
        channels.values.forEach { $0.close() }
        sweep()
        for listener in listeners {
            loop.deregister(listener.token)
            _ = Glibc.close(listener.descriptor)
        }
        listeners = []
    }

    private func accept(receiver: Int, on descriptor: Int32) {
        for _ in 0..<16 {
            let client = Glibc.accept(descriptor, nil, nil)
            guard client >= 0 else {
                if errno == EMFILE || errno == ENFILE {
                    listenersResting = .now + Self.restAfterDescriptorShortage
                    listeners.forEach { loop.watch($0.token, for: 0) }
                }
                break
            }
            // Accepted sockets inherit neither flag: non-blocking, closed across exec.
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            let connection = TCPConnection(descriptor: client)
            guard channels.count < server.maximumConnections,
                let channel = try? ServedChannel(
                    receiver: receiver, connection: connection, context: server.tlsContext, at: .now)
            else { continue }  // closed when `connection` goes
            let key = ObjectIdentifier(channel)
            channel.token = loop.register(client, name: "a sender of receiver \(receiver)") { [unowned self] events in
                guard let channel = self.channels[key] else { return }
                if events & Int16(POLLOUT) != 0 { channel.writable() }
                if events & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
                    channel.readable(
                        status: { self.server.status(of: receiver) },
                        authenticate: { self.server.authenticate(receiver, challenge: $0) })
                }
            }
            channels[key] = channel
        }
        server.setConnectionCount(channels.count)
    }

    /// Forgets closed connections; watches the others for output while some waits.
    private func sweep() {
        for (key, channel) in channels {
            if channel.isClosed {
                if let token = channel.token { loop.deregister(token) }
                channels[key] = nil
            } else if let token = channel.token {
                loop.watch(token, for: Int16(POLLIN) | (channel.wantsOutput ? Int16(POLLOUT) : 0))
            }
        }
        server.setConnectionCount(channels.count)
    }
}
