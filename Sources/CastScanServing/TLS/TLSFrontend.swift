import CastDiscovery
import Dispatch
import Synchronization
internal import COpenSSL
#if canImport(Glibc)
import Glibc
#endif

/// The TLS side of a server: accepts on its listening socket, completes each handshake with
/// OpenSSL, then hands the connection's decrypted side to libmicrohttpd as one end of a socket
/// pair (`hand`) and relays between the two. One thread of its own, polling; at most
/// `maximumConnections` clients at once (more wait in the listen backlog); a handshake not done
/// within `handshakeTimeout` is closed. A client that speaks plain HTTP to it is told so (400)
/// and closed.
final class TLSFrontend: Sendable {
    /// Hands a connected socket (the decrypted side) to the HTTP server, which then owns it;
    /// false when it refused it.
    typealias Hand = @Sendable (_ socket: Int32, _ address: sockaddr_storage, _ length: socklen_t) -> Bool
    /// The context for a new connection (the latest, when the files changed); nil: none.
    typealias Context = @Sendable () -> TLSServerContext?

    private let wakeWrite: Int32
    private let ended = DispatchSemaphore(value: 0)
    private let stopping = Atomic(false)

    /// Starts serving `listening` (a listening TCP socket, which the frontend then owns).
    init(
        listening: Int32, maximumConnections: Int, handshakeTimeout: Duration, clock: ContinuousClock,
        context: @escaping Context, hand: @escaping Hand
    ) throws(HTTPServerError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw .cannotStart("no pipe for the TLS thread: \(String(cString: strerror(errno)))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        wakeWrite = ends[1]
        _ = fcntl(listening, F_SETFL, fcntl(listening, F_GETFL) | O_NONBLOCK)
        let loop = TLSLoop(
            listening: listening, wake: ends[0], maximum: max(1, maximumConnections),
            handshakeTimeout: handshakeTimeout,
            clock: clock, context: context, hand: hand)
        let ended = self.ended
        do {
            try LoopThread.start {
                loop.run()
                ended.signal()
            }
        } catch {
            close(ends[0])
            close(ends[1])
            close(listening)
            throw .cannotStart(error.description)
        }
    }

    /// Stops accepting, closes every connection and the listening socket, and waits for the
    /// thread. Calling it again does nothing.
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
        ended.wait()
        close(wakeWrite)
    }

    deinit { stop() }
}

/// The frontend's thread: its clients, polled. Owned by that thread alone.
private final class TLSLoop: @unchecked Sendable {
    let listening: Int32
    let wake: Int32
    let maximum: Int
    let handshakeTimeout: Duration
    let clock: ContinuousClock
    let context: TLSFrontend.Context
    let hand: TLSFrontend.Hand
    var clients: [TLSClient] = []

    init(
        listening: Int32, wake: Int32, maximum: Int, handshakeTimeout: Duration, clock: ContinuousClock,
        context: @escaping TLSFrontend.Context, hand: @escaping TLSFrontend.Hand
    ) {
        self.listening = listening
        self.wake = wake
        self.maximum = maximum
        self.handshakeTimeout = handshakeTimeout
        self.clock = clock
        self.context = context
        self.hand = hand
    }

    func run() {
        defer {
            for client in clients { client.close() }
            clients.removeAll()
            close(listening)
            close(wake)
        }
        while true {
            var descriptors = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let accepting = clients.count < maximum
            if accepting { descriptors.append(pollfd(fd: listening, events: Int16(POLLIN), revents: 0)) }
            for client in clients { descriptors += client.interest }
            let now = clock.now
            let nextDeadline = clients.compactMap(\.deadline).min()
            let wait = nextDeadline.map { max(.zero, min(.seconds(1), $0 - now)) } ?? .seconds(1)
            let milliseconds = Int32(
                clamping: wait.components.seconds * 1000 + wait.components.attoseconds / 1_000_000_000_000_000)
            let ready = poll(&descriptors, nfds_t(descriptors.count), max(1, milliseconds))
            if ready < 0 && errno != EINTR { return }
            if descriptors[0].revents != 0 { return }
            if accepting, descriptors[1].revents != 0 { accept() }
            let now2 = clock.now
            clients.removeAll { client in
                let keep = client.advance(hand: hand) && !(client.deadline.map { now2 >= $0 } ?? false)
                if !keep { client.close() }
                return !keep
            }
        }
    }

    /// Takes the waiting connections, up to the bound.
    private func accept() {
        while clients.count < maximum {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let socket = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(listening, $0, &length) }
            }
            guard socket >= 0 else { return }
            _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
            _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
            guard let context = context(),
                let client = TLSClient(
                    socket: socket, address: address, length: length, context: context,
                    deadline: clock.now + handshakeTimeout)
            else {
                Glibc.close(socket)
                continue
            }
            clients.append(client)
        }
    }
}

/// One TLS client: its socket and OpenSSL session, then the pair's end it relays to.
private final class TLSClient {
    enum State {
        /// Looking at the first byte: a TLS handshake, or plain HTTP.
        case peeking
        case handshaking
        case relaying
    }

    static let bufferSize = 16 * 1024

    let socket: Int32
    let ssl: OpaquePointer
    let address: sockaddr_storage
    let length: socklen_t
    var state = State.peeking
    /// The handshake's deadline; nil once relaying (libmicrohttpd closes idle connections).
    var deadline: ContinuousClock.Instant?
    /// Our end of the pair; -1 before the handshake ended.
    var pair: Int32 = -1
    /// Decrypted bytes from the client, waiting for the HTTP server.
    var inbound = RelayBuffer(capacity: bufferSize)
    /// The HTTP server's bytes, waiting to be encrypted for the client.
    var outbound = RelayBuffer(capacity: bufferSize)
    var clientEnded = false
    var serverEnded = false
    var pairWriteShut = false
    /// OpenSSL needs the socket writable before it can go on.
    var wantsWrite = false

    init?(
        socket: Int32, address: sockaddr_storage, length: socklen_t, context: TLSServerContext,
        deadline: ContinuousClock.Instant
    ) {
        guard let ssl = SSL_new(context.pointer) else { return nil }
        guard SSL_set_fd(ssl, socket) == 1 else {
            SSL_free(ssl)
            return nil
        }
        SSL_set_accept_state(ssl)
        self.socket = socket
        self.ssl = ssl
        self.address = address
        self.length = length
        self.deadline = deadline
    }

    /// The descriptors to poll and for what.
    var interest: [pollfd] {
        var socketEvents: Int32 = 0
        switch state {
        case .peeking, .handshaking:
            socketEvents = POLLIN | (wantsWrite ? POLLOUT : 0)
        case .relaying:
            if !clientEnded && inbound.room > 0 { socketEvents |= POLLIN }
            if outbound.count > 0 || wantsWrite { socketEvents |= POLLOUT }
        }
        var result = [pollfd(fd: socket, events: Int16(socketEvents), revents: 0)]
        if pair >= 0 {
            var pairEvents: Int32 = 0
            if !serverEnded && outbound.room > 0 { pairEvents |= POLLIN }
            if inbound.count > 0 { pairEvents |= POLLOUT }
            result.append(pollfd(fd: pair, events: Int16(pairEvents), revents: 0))
        }
        return result
    }

    /// Goes as far as the sockets allow; false when the connection is over.
    func advance(hand: TLSFrontend.Hand) -> Bool {
        wantsWrite = false
        switch state {
        case .peeking:
            var byte: UInt8 = 0
            let peeked = recv(socket, &byte, 1, Int32(MSG_PEEK))
            if peeked == 0 { return false }
            if peeked < 0 { return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR }
            guard byte == 0x16 else {
                // Not a TLS handshake record: plain HTTP, most likely. Said as Go's servers say it.
                let answer = Array(
                    "HTTP/1.0 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nClient sent an HTTP request to an HTTPS server.\n"
                        .utf8)
                _ = answer.withUnsafeBytes { send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                return false
            }
            state = .handshaking
            return advance(hand: hand)
        case .handshaking:
            ERR_clear_error()
            let result = SSL_accept(ssl)
            guard result == 1 else {
                switch SSL_get_error(ssl, result) {
                case SSL_ERROR_WANT_READ: return true
                case SSL_ERROR_WANT_WRITE:
                    wantsWrite = true
                    return true
                default:
                    ERR_clear_error()
                    return false
                }
            }
            guard handOver(hand) else { return false }
            state = .relaying
            deadline = nil
            return relay()
        case .relaying:
            return relay()
        }
    }

    /// A socket pair: one end to the HTTP server, with the client's address; the other ours.
    private func handOver(_ hand: TLSFrontend.Hand) -> Bool {
        var ends: [Int32] = [-1, -1]
        guard
            socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0, &ends)
                == 0
        else { return false }
        guard hand(ends[1], address, length) else {
            Glibc.close(ends[0])
            return false
        }
        pair = ends[0]
        return true
    }

    /// Moves bytes both ways as far as they go; false when both sides are done, or on an error.
    private func relay() -> Bool {
        ERR_clear_error()
        // The client's bytes, decrypted, to the HTTP server.
        while !clientEnded && inbound.room > 0 {
            let read = inbound.fill { SSL_read(ssl, $0, Int32(clamping: $1)) }
            if read > 0 { continue }
            switch SSL_get_error(ssl, Int32(clamping: read)) {
            case SSL_ERROR_WANT_READ: break
            case SSL_ERROR_WANT_WRITE: wantsWrite = true
            case SSL_ERROR_ZERO_RETURN, SSL_ERROR_SYSCALL: clientEnded = true
            default: return false
            }
            break
        }
        while inbound.count > 0 {
            let written = inbound.drain { Glibc.write(pair, $0, $1) }
            if written > 0 { continue }
            if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { break }
            return false
        }
        if clientEnded && inbound.count == 0 && !pairWriteShut {
            shutdown(pair, Int32(SHUT_WR))
            pairWriteShut = true
        }
        // The HTTP server's bytes, encrypted, to the client.
        while !serverEnded && outbound.room > 0 {
            let read = outbound.fill { Glibc.read(pair, $0, $1) }
            if read > 0 { continue }
            if read == 0 {
                serverEnded = true
            } else if !(errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                return false
            }
            break
        }
        while outbound.count > 0 {
            let written = outbound.drain { SSL_write(ssl, $0, Int32(clamping: $1)) }
            if written > 0 { continue }
            switch SSL_get_error(ssl, Int32(written)) {
            case SSL_ERROR_WANT_WRITE: wantsWrite = true
            case SSL_ERROR_WANT_READ: break
            default: return false
            }
            break
        }
        if serverEnded && outbound.count == 0 {
            _ = SSL_shutdown(ssl)
            return false
        }
        return !(clientEnded && serverEnded)
    }

    func close() {
        SSL_free(ssl)
        Glibc.close(socket)
        if pair >= 0 { Glibc.close(pair) }
        ERR_clear_error()
    }
}

/// A bounded buffer of bytes between two descriptors: filled at its end, drained from its start.
private struct RelayBuffer {
    private var bytes: [UInt8]
    private(set) var count = 0

    init(capacity: Int) { bytes = [UInt8](repeating: 0, count: capacity) }

    var room: Int { bytes.count - count }

    /// Lets `read` write into the free room; adds what it says it wrote (when positive).
    mutating func fill(_ read: (UnsafeMutableRawPointer, Int) -> some BinaryInteger) -> Int {
        let start = count, room = self.room
        let got = bytes.withUnsafeMutableBytes { raw -> Int in
            guard let base = raw.baseAddress else { return -1 }
            return Int(read(base + start, room))
        }
        if got > 0 { count += min(got, room) }
        return got
    }

    /// Lets `write` take from the start; drops what it says it took (when positive).
    mutating func drain(_ write: (UnsafeRawPointer, Int) -> some BinaryInteger) -> Int {
        let count = self.count
        let sent = bytes.withUnsafeBytes { raw -> Int in
            guard let base = raw.baseAddress else { return -1 }
            return Int(write(base, count))
        }
        if sent > 0 {
            let taken = min(sent, count)
            bytes.withUnsafeMutableBytes { raw in
                guard let base = raw.baseAddress else { return }
                base.copyMemory(from: base + taken, byteCount: count - taken)
            }
            self.count = count - taken
        }
        return sent
    }
}
