import CastScanServing
import Testing

@Suite("Accept and Accept-Encoding: the highest weight wins")
struct NegotiationTests {
    @Test(
        "the format a scraper's Accept asks for",
        arguments: [
            (nil, ExpositionFormat.prometheusText),
            ("application/openmetrics-text", .openMetrics),
            ("application/openmetrics-text;q=0", .prometheusText),
            // Prometheus 2.42's own header.
            (
                "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
                .openMetrics
            ),
            ("text/plain;version=0.0.4;q=0.9, application/openmetrics-text;q=0.5", .prometheusText),
            ("application/openmetrics-text;q=0.5, text/plain;q=0.9", .prometheusText),
            ("text/plain;q=0.2, application/*;q=0.3", .openMetrics),
            ("application/openmetrics-text;q=0.5, text/plain;q=0.5", .prometheusText),
            ("*/*", .prometheusText),
            ("application/openmetrics-text;q=nonsense", .prometheusText),
            ("application/json", .prometheusText),
        ] as [(String?, ExpositionFormat)])
    func format(accept: String?, expected: ExpositionFormat) {
        #expect(ExpositionFormat(accept: accept) == expected)
    }

    @Test(
        "the coding a client's Accept-Encoding asks for",
        arguments: [
            (nil, ContentCoding.identity),
            ("gzip", .gzip),
            ("GZIP", .gzip),
            ("x-gzip", .gzip),
            ("gzip;q=0", .identity),
            ("gzip; q=0.5", .gzip),
            ("gzip;q=0.5, identity", .identity),
            ("identity;q=0.4, gzip;q=0.5", .gzip),
            ("deflate, br", .identity),
            ("*", .gzip),
            ("*;q=0, identity", .identity),
            ("br;q=1.0, gzip;q=0.8, *;q=0.1", .gzip),
            ("gzip;q=2", .identity),
            ("gzip;q=0.1234", .identity),
        ] as [(String?, ContentCoding)])
    func coding(acceptEncoding: String?, expected: ContentCoding) {
        #expect(ContentCoding(acceptEncoding: acceptEncoding) == expected)
    }

    @Test("a header past the bound is not read: the defaults")
    func bounded() {
        let long = String(repeating: "x;q=0.1, ", count: 600) + "gzip"
        #expect(long.utf8.count > 4096)
        #expect(ContentCoding(acceptEncoding: long) == .identity)
        #expect(
            ExpositionFormat(accept: long.replacingOccurrences(of: "gzip", with: "application/openmetrics-text"))
                == .prometheusText)
    }
}
