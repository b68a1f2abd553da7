import CastDiscovery
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on one address (or one socket systemd passed), answering each request
/// with a handler: GNU libmicrohttpd with its own polling thread. Requests are handled one at a
/// time on that thread, so a handler must be quick, and answers what takes time later
/// (``HTTPAnswer/later(_:)``); a slow or silent client only holds its own connection until
/// ``Limits/idleTimeoutSeconds``.
public final class HTTPServer: Sendable {
    /// Answers one request at once. Called on the server's thread.
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse
    /// Answers one request, at once or later. Called on the server's thread.
    public typealias Answerer = @Sendable (HTTPRequest) -> HTTPAnswer

    /// What the server holds at most.
    public struct Limits: Sendable, Hashable {
        /// Connections open at once; more wait in the listen backlog until one closes.
        public var connections: Int
        /// Seconds a connection may stay idle (a client that sends or reads nothing).
        public var idleTimeoutSeconds: Int
        /// Bytes a request's head (request line and headers) may take; a longer one is
        /// answered 431.
        public var requestHeadBytes: Int

        /// Creates limits.
        public init(connections: Int = 64, idleTimeoutSeconds: Int = 10, requestHeadBytes: Int = 32 * 1024) {
            self.connections = connections
            self.idleTimeoutSeconds = idleTimeoutSeconds
            self.requestHeadBytes = requestHeadBytes
        }
    }

    /// The address the server listens on, with the port the system chose when 0 was asked.
    public let address: HTTPListenAddress

    private let daemon: LockedValue<Daemon?>
    private let context: RequestContext
    /// The TLS side, when the server speaks TLS.
    private let frontend: TLSFrontend?

    /// Starts listening on `address` and answering requests with `handler`.
    public convenience init(listen address: HTTPListenAddress, limits: Limits = Limits(), handler: @escaping Handler)
        throws(HTTPServerError)
    {
        try self.init(listen: address, limits: limits, answerer: { .now(handler($0)) })
    }

    /// Starts listening on `address` and answering requests with `answerer`.
    public init(listen address: HTTPListenAddress, limits: Limits = Limits(), answerer: @escaping Answerer)
        throws(HTTPServerError)
    {
        context = RequestContext(answerer: answerer)
        let started = try Daemon.start(address, limits: limits, context: context)
        self.address = HTTPListenAddress(host: address.host, port: started.port)
        daemon = LockedValue(started)
        frontend = nil
    }

    /// Starts listening on `address` (or serving `socket`, a listening socket systemd passed)
    /// with TLS as `access`'s web configuration asks (its `tls_server_config`; a new context when
    /// its files change), answering requests with `answerer`. TLS is OpenSSL's; the decrypted
    /// connections go to libmicrohttpd.
    public init(
        listen address: HTTPListenAddress? = nil, socket: Int32? = nil, limits: Limits = Limits(),
        tls access: WebAccess,
        clock: ContinuousClock, answerer: @escaping Answerer
    ) throws(HTTPServerError) {
        let listening: Int32, bound: HTTPListenAddress
        if let socket {
            listening = socket
            bound = try HTTPListenAddress(boundTo: socket)
        } else if let address {
            (listening, bound) = try ListeningSocket.open(address)
        } else {
            throw .cannotStart("no address and no socket to listen on")
        }
        let context = RequestContext(answerer: answerer)
        let started: Daemon
        do {
            _ = try access.tlsContext()
            started = try Daemon.startWithoutSocket(limits: limits, context: context)
        } catch let error as HTTPServerError {
            close(listening)
            throw error
        } catch let error as WebConfigurationError {
            close(listening)
            throw .cannotStart(error.message)
        } catch {
            close(listening)
            throw .cannotStart("\(error)")
        }
        self.context = context
        self.address = bound
        daemon = LockedValue(started)
        do {
            frontend = try TLSFrontend(
                listening: listening, maximumConnections: limits.connections,
                handshakeTimeout: .seconds(Int64(max(1, limits.idleTimeoutSeconds))), clock: clock,
                context: { access.currentTLSContext() },
                hand: { socket, address, length in started.add(socket, address: address, length: length) })
        } catch {
            started.stop()
            throw error
        }
    }

    /// Starts answering requests with `answerer` on `socket`, a listening TCP socket passed by
    /// systemd (``SocketActivation``), which the server then owns.
    public init(socket: Int32, limits: Limits = Limits(), answerer: @escaping Answerer) throws(HTTPServerError) {
        context = RequestContext(answerer: answerer)
        let address = try HTTPListenAddress(boundTo: socket)
        let started = try Daemon.start(socket: socket, address: address, limits: limits, context: context)
        self.address = address
        daemon = LockedValue(started)
        frontend = nil
    }

    /// Stops listening and closes every connection; waits for a request being answered, and
    /// ends those waiting for a later answer (503 when it can still be sent). Calling it again
    /// does nothing.
    public func stop() {
        let running = daemon.withLock { current -> Daemon? in
            defer { current = nil }
            return current
        }
        guard let running else { return }
        // No new connection reaches the daemon once the frontend stopped.
        frontend?.stop()
        context.stopWaiting()
        running.stop()
    }

    deinit { stop() }
}

/// What the server's callbacks need: the answerer (kept alive by the server), and the requests
/// waiting for a later answer.
final class RequestContext: Sendable {
    let answerer: HTTPServer.Answerer
    private let waiting = LockedValue(Waiting())

    private struct Waiting {
        var stopped = false
        var requests: [ObjectIdentifier: WaitingRequest] = [:]
    }

    init(answerer: @escaping HTTPServer.Answerer) { self.answerer = answerer }

    /// Suspends `request` until it is answered; false once the server is stopping (answer it
    /// now). Under the lock: a stop cannot resume it before it is suspended (which libmicrohttpd
    /// does not allow).
    func hold(_ request: WaitingRequest) -> Bool {
        waiting.withLock { waiting in
            guard !waiting.stopped else { return false }
            waiting.requests[ObjectIdentifier(request)] = request
            request.suspend()
            return true
        }
    }

    /// Gives `request` its answer and lets the server go on with it, once: under the lock, so
    /// that the server never stops between the two.
    func answer(_ request: WaitingRequest, with response: HTTPResponse) {
        waiting.withLock { waiting in
            guard waiting.requests.removeValue(forKey: ObjectIdentifier(request)) != nil else { return }
            request.resume(with: response)
        }
    }

    /// Answers every waiting request 503 and takes no more: before the daemon stops, which
    /// must not hold a suspended connection.
    func stopWaiting() {
        waiting.withLock { waiting in
            waiting.stopped = true
            for request in waiting.requests.values {
                request.resume(with: .text(503, "the server is stopping\n"))
            }
            waiting.requests.removeAll()
        }
    }
}
