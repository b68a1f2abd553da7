internal import CMicroHTTPD
import CastDiscovery
#if canImport(Glibc)
import Glibc
#endif

/// The running libmicrohttpd daemon: the C calls of ``HTTPServer``, each wrapped once.
struct Daemon: @unchecked Sendable {
    // The daemon handle is used only to stop it, once (HTTPServer's lock sees to that).
    private let handle: OpaquePointer
    let port: UInt16

    /// Whether libmicrohttpd could be loaded; loads it the first time.
    private static let loaded: Bool = cast_mhd_load()

    static func start(_ address: HTTPListenAddress, limits: HTTPServer.Limits, context: RequestContext)
        throws(HTTPServerError) -> Daemon
    {
        guard loaded else { throw .libraryMissing }
        let cLimits = limits.c
        let contextPointer = Unmanaged.passUnretained(context).toOpaque()
        // The shim adds the epoll polling thread.
        let flags =
            address.isIPv4
            ? 0 : UInt32(address.isIPv6Unspecified ? MHD_USE_DUAL_STACK.rawValue : MHD_USE_IPv6.rawValue)
        // errno is what a failed bind or listen left: the reason said.
        errno = 0
        let handle = address.withSocketAddress { socketAddress, _ in
            cast_mhd_start(flags, socketAddress, cLimits, answer, completed, contextPointer)
        }
        guard let handle else {
            let code = errno
            let reason = code == 0 ? "libmicrohttpd refused to start" : String(cString: strerror(code))
            throw .cannotListen(address, reason: reason)
        }
        let bound = cast_mhd_bound_port(handle)
        return Daemon(handle: handle, port: bound == 0 ? address.port : bound)
    }

    /// Starts on `socket`, which is listening already (socket activation) at `address`.
    static func start(socket: Int32, address: HTTPListenAddress, limits: HTTPServer.Limits, context: RequestContext)
        throws(HTTPServerError) -> Daemon
    {
        guard loaded else { throw .libraryMissing }
        let flags = UInt32(address.isIPv4 ? 0 : MHD_USE_IPv6.rawValue)
        errno = 0
        let started = cast_mhd_start_on_socket(
            flags, socket, limits.c, answer, completed, Unmanaged.passUnretained(context).toOpaque())
        guard let started else {
            let code = errno
            let reason = code == 0 ? "libmicrohttpd refused the socket" : String(cString: strerror(code))
            throw .cannotListen(address, reason: reason)
        }
        return Daemon(handle: started, port: address.port)
    }

    /// Starts with no socket of its own: it serves what ``add(_:address:length:)`` hands it
    /// (a TLS frontend's decrypted side). Its limit is kept well above what the frontend hands
    /// it at once (`limits.connections`): libmicrohttpd 0.9.75 can deadlock when a connection
    /// added meets its limit.
    static func startWithoutSocket(limits: HTTPServer.Limits, context: RequestContext) throws(HTTPServerError)
        -> Daemon
    {
        guard loaded else { throw .libraryMissing }
        var cLimits = limits.c
        cLimits.connection_limit = UInt32(clamping: max(1, limits.connections) * 2 + 16)
        guard
            let handle = cast_mhd_start_without_socket(
                cLimits, answer, completed, Unmanaged.passUnretained(context).toOpaque())
        else { throw .cannotStart("libmicrohttpd refused to start") }
        return Daemon(handle: handle, port: 0)
    }

    /// Hands `socket` (a connected socket, which the daemon then owns) to a daemon started
    /// without a socket, as a connection from `address`.
    func add(_ socket: Int32, address: sockaddr_storage, length: socklen_t) -> Bool {
        var address = address
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { cast_mhd_add(handle, socket, $0, length) }
        }
    }

    func stop() { cast_mhd_stop(handle) }
}

/// libmicrohttpd's request callback: the first call for a request answers it (GET and HEAD
/// carry no body; any other method is refused before its body is read), or holds it (suspended)
/// for an answer given later; the call after that answer's resume queues it.
private let answer: MHD_AccessHandlerCallback = { context, connection, url, method, _, _, _, state in
    guard let context, let connection, let state else { return .NO }
    if let held = state.pointee {
        // Resumed: the answer is there (the resume came after it).
        let waiting = Unmanaged<WaitingRequest>.fromOpaque(held).takeUnretainedValue()
        guard let response = waiting.response else { return .NO }
        return queue(response, on: connection) ? .YES : .NO
    }
    let server = Unmanaged<RequestContext>.fromOpaque(context).takeUnretainedValue()
    var headers: [String: String] = [:]
    for name in HTTPRequest.headerNames {
        if let value = cast_mhd_header(connection, name) { headers[name] = String(cString: value) }
    }
    var query: [String: String] = [:]
    for name in HTTPRequest.queryNames {
        if let value = cast_mhd_argument(connection, name) { query[name] = String(cString: value) }
    }
    let request = HTTPRequest(
        method: method.map { String(cString: $0) } ?? "",
        path: url.map { String(cString: $0) } ?? "/",
        query: query, headers: headers)
    switch server.answerer(request) {
    case .now(let response):
        return queue(response, on: connection) ? .YES : .NO
    case .later(let start):
        let waiting = WaitingRequest(connection: connection)
        // Released by `completed`, when the request ends.
        let retained = Unmanaged.passRetained(waiting)
        state.pointee = retained.toOpaque()
        guard server.hold(waiting) else {
            retained.release()
            state.pointee = nil
            return queue(.text(503, "the server is stopping\n"), on: connection) ? .YES : .NO
        }
        // After the suspension (libmicrohttpd: never resume what is not suspended).
        start { [weak server] response in server?.answer(waiting, with: response) }
        return .YES
    }
}

/// libmicrohttpd's request-completed callback: releases a request held for a later answer.
private let completed: MHD_RequestCompletedCallback = { _, _, state, _ in
    guard let state, let held = state.pointee else { return }
    Unmanaged<WaitingRequest>.fromOpaque(held).release()
    state.pointee = nil
}

/// A request suspended until its answer comes: the answer, set once, then its connection resumed.
final class WaitingRequest: @unchecked Sendable {
    // The connection is only resumed, once, under RequestContext's lock; the response is set
    // before that resume and read by the server's thread after it.
    private let connection: OpaquePointer
    private(set) var response: HTTPResponse?

    init(connection: OpaquePointer) { self.connection = connection }

    /// Suspends the connection: called once, by the server's thread, under the context's lock.
    func suspend() { cast_mhd_suspend(connection) }

    /// Sets the answer and resumes the connection. Called once, under the context's lock.
    func resume(with response: HTTPResponse) {
        self.response = response
        cast_mhd_resume(connection)
    }
}

extension HTTPServer.Limits {
    /// The limits as the shim takes them.
    fileprivate var c: cast_mhd_limits {
        cast_mhd_limits(
            connection_limit: UInt32(clamping: max(1, connections)),
            per_address_limit: 0,
            timeout_seconds: UInt32(clamping: max(1, idleTimeoutSeconds)),
            memory_limit: max(4096, requestHeadBytes))
    }
}

/// Hands `response` to libmicrohttpd for `connection`; false when it cannot be (out of memory).
private func queue(_ response: HTTPResponse, on connection: OpaquePointer) -> Bool {
    let made = response.body.withUnsafeBytes { cast_mhd_response($0.baseAddress, $0.count) }
    guard let made else { return false }
    defer { cast_mhd_release(made) }
    var headers = [(name: "Content-Type", value: response.contentType)] + response.headers
    headers.append((name: "X-Content-Type-Options", value: "nosniff"))
    for (name, value) in headers where !value.contains(where: \.isNewline) {
        guard cast_mhd_add_header(made, name, value) else { return false }
    }
    return cast_mhd_queue(connection, UInt32(clamping: response.status), made)
}
