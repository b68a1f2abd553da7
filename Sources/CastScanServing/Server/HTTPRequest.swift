/// One HTTP request as a handler sees it: its method, its path, its query and the headers the
/// server reads.
public struct HTTPRequest: Sendable, Hashable {
    /// The request headers the server passes to a handler (others are not read).
    public static let headerNames = [
        "Accept", "Accept-Encoding", "Authorization", "X-Prometheus-Scrape-Timeout-Seconds",
    ]
    /// The query arguments the server passes to a handler (others are not read).
    public static let queryNames = ["target"]

    /// `GET`, `HEAD`, `POST`, ... as the client sent it.
    public var method: String
    /// The path, without the query string.
    public var path: String
    /// The query's arguments the server passes on (`target` of `/probe?target=...`), decoded.
    public var query: [String: String]
    /// Headers of ``headerNames`` that the request has, by lower-case name.
    public var headers: [String: String]

    /// Creates a request; header names are matched without regard to case.
    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Creates a request with an `Accept` header (or none).
    public init(method: String, path: String, accept: String?) {
        self.init(method: method, path: path, headers: accept.map { ["Accept": $0] } ?? [:])
    }

    /// The value of the header `name` (any case), or nil.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The `Accept` header, or nil.
    public var accept: String? { header("Accept") }
}
