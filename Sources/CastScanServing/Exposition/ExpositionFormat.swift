/// The formats a scrape can be answered in.
public enum ExpositionFormat: Sendable, Hashable {
    /// Prometheus' text format 0.0.4.
    case prometheusText
    /// OpenMetrics 1.0.0 text.
    case openMetrics

    /// The format a scraper asks for with its `Accept` header: the one of higher weight, each
    /// weighed by its most specific range (`application/openmetrics-text`, then
    /// `application/*`, then `*/*`; `text/plain`, `text/*`, `*/*`). Prometheus' text format on a
    /// tie, without the header, or when neither is acceptable.
    public init(accept: String?) {
        let list = WeightedList(accept)
        let openMetrics = Self.weight(in: list, type: "application", subtype: "openmetrics-text")
        let text = Self.weight(in: list, type: "text", subtype: "plain")
        self = openMetrics > text ? .openMetrics : .prometheusText
    }

    /// A media type's weight in `list`: that of the most specific range naming it; 0 when
    /// none does.
    private static func weight(in list: WeightedList, type: String, subtype: String) -> Double {
        let media: (String) -> String = { $0.split(separator: ";").first.map(String.init) ?? $0 }
        let exact = list.weight { media($0) == "\(type)/\(subtype)" }
        return exact ?? list.weight { media($0) == "\(type)/*" } ?? list.weight { media($0) == "*/*" } ?? 0
    }

    /// The `Content-Type` of an exposition in this format.
    public var contentType: String {
        switch self {
        case .prometheusText: "text/plain; version=0.0.4; charset=utf-8"
        case .openMetrics: "application/openmetrics-text; version=1.0.0; charset=utf-8"
        }
    }
}
