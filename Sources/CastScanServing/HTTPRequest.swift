/// One HTTP request as a handler sees it: its method, its path and the headers it needs.
public struct HTTPRequest: Sendable, Hashable {
    /// `GET`, `HEAD`, `POST`, ... as the client sent it.
    public var method: String
    /// The path, without the query string.
    public var path: String
    /// The `Accept` header, or nil.
    public var accept: String?

    /// Creates a request.
    public init(method: String, path: String, accept: String? = nil) {
        self.method = method
        self.path = path
        self.accept = accept
    }
}
