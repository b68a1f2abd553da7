import CastDiscovery
#if canImport(Glibc)
import Glibc
#endif

/// A non-blocking TCP socket to a receiver: connected within a deadline, read and written with
/// `poll`, closed when released. Sends use `MSG_NOSIGNAL`: a receiver that went away is an
/// error, never a `SIGPIPE`.
final class TCPConnection {
    let descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// How often a wait looks at `cancelled`: a stop is honoured within this.
    static let cancellationCheck: Duration = .milliseconds(200)

    /// Connects to `host` (an address or a name) on `port` before `deadline`, trying each
    /// address the name has in turn.
    static func connect(
        host: String, port: UInt16, deadline: ContinuousClock.Instant, cancelled: () -> Bool
    ) throws(CastChannelError) -> TCPConnection {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw CastChannelError(
                .resolve, "\(SafeText.quoted(host)) does not resolve: \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = CastChannelError(.refused, "no address to connect to")
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let current = entry {
            entry = current.pointee.ai_next
            do {
                return try connect(to: current.pointee, deadline: deadline, cancelled: cancelled)
            } catch {
                lastError = error
                if ContinuousClock.now >= deadline { break }  // the deadline is shared: no time for the next
            }
        }
        throw lastError
    }

    private static func connect(
        to address: addrinfo, deadline: ContinuousClock.Instant, cancelled: () -> Bool
    ) throws(CastChannelError) -> TCPConnection {
        let (connection, done) = try start(address)
        if done { return connection }
        try connection.wait(for: Int16(POLLOUT), until: deadline, cancelled: cancelled, phase: "the TCP connection")
        if let error = connection.connectionError() { throw error }
        return connection
    }

    /// A non-blocking socket connecting to `address`: connected, or in progress.
    private static func start(_ address: addrinfo) throws(CastChannelError) -> (
        connection: TCPConnection, connected: Bool
    ) {
        let descriptor = socket(
            address.ai_family,
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw CastChannelError(.refused, "socket: \(systemErrorMessage(errno))") }
        let connection = TCPConnection(descriptor: descriptor)
        if Glibc.connect(descriptor, address.ai_addr, address.ai_addrlen) == 0 { return (connection, true) }
        guard errno == EINPROGRESS else { throw failure(errno) }
        return (connection, false)
    }

    /// Starts connecting to the address `host` (numeric: no name is looked up, so the caller
    /// never blocks) on `port`, without waiting: `connected` is false while the connection is
    /// in progress (ready for output when it is done; then ask ``connectionError()``).
    static func begin(address host: String, port: UInt16) throws(CastChannelError) -> (
        connection: TCPConnection, connected: Bool
    ) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | AI_NUMERICHOST
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw CastChannelError(
                .resolve, "\(SafeText.quoted(host)) is not an address: \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        return try start(list.pointee)
    }

    /// Once a connection in progress is ready for output: nil when it connected, else why not.
    func connectionError() -> CastChannelError? {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else { return Self.failure(errno) }
        return error == 0 ? nil : Self.failure(error)
    }

    /// Sends what the socket takes now of `bytes`, without waiting: how many it took.
    func sendAvailable(_ bytes: ArraySlice<UInt8>) throws(CastChannelError) -> Int {
        guard !bytes.isEmpty else { return 0 }
        let count = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if count >= 0 { return count }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return 0 }
        throw CastChannelError(.closed, "the receiver closed the connection (\(systemErrorMessage(errno)))")
    }

    /// What there is to read now, at most `limit` bytes, without waiting: empty when nothing is.
    ///
    /// - Throws: `.closed` when the receiver closed or reset the connection.
    func receiveAvailable(limit: Int = 16_384) throws(CastChannelError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count > 0 { return Array(buffer.prefix(count)) }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return [] }
        if count < 0, errno == ECONNRESET { throw CastChannelError(.closed, "the receiver reset the connection") }
        throw CastChannelError(.closed, "the receiver closed the connection")
    }

    /// The error a failed connect gives.
    static func failure(_ code: Int32) -> CastChannelError {
        switch code {
        case ECONNREFUSED, ECONNRESET:
            CastChannelError(.refused, "connection refused (nothing listens on the port)")
        case EHOSTUNREACH, ENETUNREACH, ETIMEDOUT:
            CastChannelError(.timeout, "no answer: \(systemErrorMessage(code))")
        default:
            CastChannelError(.refused, "connect: \(systemErrorMessage(code))")
        }
    }

    /// Waits until the socket is ready for `events` or `deadline` passes (a `.timeout` naming
    /// `phase`), looking at `cancelled` every ``cancellationCheck``.
    func wait(for events: Int16, until deadline: ContinuousClock.Instant, cancelled: () -> Bool, phase: String)
        throws(CastChannelError)
    {
        while true {
            if cancelled() { throw CastChannelError(.timeout, "stopped before \(phase) was done") }
            let now = ContinuousClock.now
            guard now < deadline else {
                throw CastChannelError(.timeout, "no answer: \(phase) took longer than the time-out")
            }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, LoopWaker.pollTimeout(until: min(deadline, now + Self.cancellationCheck)))
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw CastChannelError(.closed, "poll: \(systemErrorMessage(errno))") }
        }
    }

    /// Sends all of `bytes` before `deadline`.
    func send(_ bytes: [UInt8], deadline: ContinuousClock.Instant, cancelled: () -> Bool) throws(CastChannelError) {
        var sent = 0
        while sent < bytes.count {
            let count = try sendAvailable(bytes[sent...])
            if count == 0 { try wait(for: Int16(POLLOUT), until: deadline, cancelled: cancelled, phase: "a write") }
            sent += count
        }
    }

    /// What is there to read, at most `limit` bytes, after waiting until `deadline` for some;
    /// empty when the deadline passed first.
    ///
    /// - Throws: `.closed` when the receiver closed the connection.
    func receive(limit: Int = 16_384, until deadline: ContinuousClock.Instant, cancelled: () -> Bool)
        throws(CastChannelError) -> [UInt8]
    {
        do {
            try wait(for: Int16(POLLIN), until: deadline, cancelled: cancelled, phase: "a read")
        } catch {
            if error.code == .timeout, !cancelled() { return [] }
            throw error
        }
        return try receiveAvailable(limit: limit)
    }
}
