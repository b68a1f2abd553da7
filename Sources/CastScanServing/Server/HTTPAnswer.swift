/// How a handler answers a request: now, or later from another thread (a slow check, a probe
/// of the network), while the server's thread goes on with other requests.
public enum HTTPAnswer: Sendable {
    /// Answers with this response.
    case now(HTTPResponse)
    /// Answers later: the server calls `start` once, on its thread, with `respond`, which must
    /// be called once, from any thread, with the response (a second call does nothing). The
    /// request holds its connection until then; a server that stops first ends it (with 503
    /// when it can still send it).
    case later(_ start: @Sendable (_ respond: @escaping @Sendable (HTTPResponse) -> Void) -> Void)
}
