/// What a handler answers: a status, a content type, extra headers and the body.
public struct HTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The `Content-Type` header.
    public var contentType: String
    /// More headers (name, value); values must not hold line breaks.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, contentType: String, headers: [(name: String, value: String)] = [], body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    /// A plain-text response.
    public static func text(_ status: Int, _ text: String, headers: [(name: String, value: String)] = [])
        -> HTTPResponse
    {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", headers: headers, body: Array(text.utf8))
    }
}
