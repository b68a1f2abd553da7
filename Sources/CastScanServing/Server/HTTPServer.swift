import CastDiscovery

/// An HTTP/1.1 server on one address (or one socket systemd passed), answering each request with a handler: GNU
/// libmicrohttpd with its own polling thread. Requests are answered one at a time on that
/// thread, so a handler must be quick; a slow or silent client only holds its own connection
/// until ``Limits/idleTimeoutSeconds``.
public final class HTTPServer: Sendable {
    /// Answers one request. Called on the server's thread.
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

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

    /// Starts listening on `address` and answering requests with `handler`.
    public init(listen address: HTTPListenAddress, limits: Limits = Limits(), handler: @escaping Handler)
        throws(HTTPServerError)
    {
        context = RequestContext(handler: handler)
        let started = try Daemon.start(address, limits: limits, context: context)
        self.address = HTTPListenAddress(host: address.host, port: started.port)
        daemon = LockedValue(started)
    }

    /// Starts answering requests with `handler` on `socket`, a listening TCP socket passed by
    /// systemd (``SocketActivation``), which the server then owns.
    public init(socket: Int32, limits: Limits = Limits(), handler: @escaping Handler) throws(HTTPServerError) {
        context = RequestContext(handler: handler)
        let address = try HTTPListenAddress(boundTo: socket)
        let started = try Daemon.start(socket: socket, address: address, limits: limits, context: context)
        self.address = address
        daemon = LockedValue(started)
    }

    /// Stops listening and closes every connection; waits for a request being answered.
    /// Calling it again does nothing.
    public func stop() {
        let running = daemon.withLock { current -> Daemon? in
            defer { current = nil }
            return current
        }
        running?.stop()
    }

    deinit { stop() }
}

/// What the server's callback needs: the handler (kept alive by the server).
final class RequestContext: Sendable {
    let handler: HTTPServer.Handler

    init(handler: @escaping HTTPServer.Handler) { self.handler = handler }
}
