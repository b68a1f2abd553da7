/// The formats a scrape can be answered in.
public enum ExpositionFormat: Sendable, Hashable {
    /// Prometheus' text format 0.0.4.
    case prometheusText
    /// OpenMetrics 1.0.0 text.
    case openMetrics

    /// The format a scraper asks for with its `Accept` header: OpenMetrics when it names
    /// `application/openmetrics-text` (with a quality above 0), else Prometheus' text format.
    public init(accept: String?) {
        self = .prometheusText
        guard let accept, accept.utf8.count <= 4096 else { return }
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters() }
            guard parts.first?.lowercased() == "application/openmetrics-text" else { continue }
            let quality =
                parts.dropFirst().first { $0.lowercased().hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if quality > 0 {
                self = .openMetrics
                return
            }
        }
    }

    /// The `Content-Type` of an exposition in this format.
    public var contentType: String {
        switch self {
        case .prometheusText: "text/plain; version=0.0.4; charset=utf-8"
        case .openMetrics: "application/openmetrics-text; version=1.0.0; charset=utf-8"
        }
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
