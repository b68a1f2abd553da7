/// How an answer's body is sent: as it is, or compressed with gzip.
public enum ContentCoding: Sendable, Hashable {
    /// The body as it is.
    case identity
    /// The body compressed, `Content-Encoding: gzip`.
    case gzip

    /// The coding a client's `Accept-Encoding` header asks for: gzip when it gives gzip (or
    /// `x-gzip`, or `*`) a weight above 0 and at least identity's; identity otherwise, and
    /// without the header. Identity not named weighs less than any coding that is.
    public init(acceptEncoding: String?) {
        let list = WeightedList(acceptEncoding)
        let any = list.weight { $0 == "*" }
        let gzip = list.weight { $0 == "gzip" || $0 == "x-gzip" } ?? any ?? 0
        let identity = list.weight { $0 == "identity" } ?? any ?? 0
        self = gzip > 0 && gzip >= identity ? .gzip : .identity
    }

    /// The `Content-Encoding` value; nil for identity.
    public var headerValue: String? {
        switch self {
        case .identity: nil
        case .gzip: "gzip"
        }
    }
}
