import CastDiscovery

/// How many requests a server answered, by handler and status code:
/// `cast_scan_http_requests_total{handler,code}`. Handlers are the server's own routes (an
/// unknown path counts under one name), so the series are bounded.
public final class HTTPRequestCounts: Sendable {
    private struct Key: Hashable {
        var handler: String
        var code: Int
    }

    /// The handlers counted; any other is counted as ``otherHandler``.
    public let handlers: Set<String>
    /// The handler name an unknown path is counted under.
    public static let otherHandler = "other"
    private let counts = LockedValue<[Key: Int]>([:])

    /// Counts for `handlers`.
    public init(handlers: Set<String>) { self.handlers = handlers }

    /// Counts one answer of `handler` with `code`.
    public func count(handler: String, code: Int) {
        let key = Key(handler: handlers.contains(handler) ? handler : Self.otherHandler, code: min(max(code, 100), 599))
        counts.withLock { $0[key, default: 0] += 1 }
    }

    /// The family, its series sorted by handler and code.
    public func family() -> MetricFamily {
        let samples = counts.withLock { $0 }.sorted { ($0.key.handler, $0.key.code) < ($1.key.handler, $1.key.code) }
            .map {
                MetricFamily.Sample(
                    [.init("handler", $0.key.handler), .init("code", String($0.key.code))], value: Double($0.value))
            }
        return MetricFamily(
            "cast_scan_http_requests", help: "HTTP requests answered, by handler and status code.", kind: .counter,
            samples: samples)
    }
}
