import CastScanServing
import Testing

@Suite struct MetricsExpositionTests {
    private let families = [
        MetricFamily(
            "demo_devices", help: "Devices \\ with \"quotes\"\nand lines.", kind: .gauge,
            samples: [
                .init([.init("name", "Kitchen \"TV\"\\\n"), .init("kind", "video")], value: 2),
                .init([.init("name", "esc\u{1B}[2J\u{85}bell\u{7}"), .init("kind", "audio")], value: 0.5),
            ]),
        MetricFamily("demo_packets", help: "Packets.", kind: .counter, samples: [.init(value: 42)]),
    ]

    @Test func prometheusText() {
        let text = MetricsExposition.render(families, format: .prometheusText)
        #expect(
            text == """
                # HELP demo_devices Devices \\\\ with "quotes"\\nand lines.
                # TYPE demo_devices gauge
                demo_devices{name="Kitchen \\"TV\\"\\\\\\n",kind="video"} 2
                demo_devices{name="esc\u{FFFD}[2J\u{FFFD}bell\u{FFFD}",kind="audio"} 0.5
                # HELP demo_packets_total Packets.
                # TYPE demo_packets_total counter
                demo_packets_total 42

                """)
    }

    @Test func openMetrics() {
        let text = MetricsExposition.render(families, format: .openMetrics)
        #expect(text.contains("# HELP demo_devices Devices \\\\ with \\\"quotes\\\"\\nand lines.\n"))
        #expect(text.contains("# TYPE demo_packets counter\ndemo_packets_total 42\n"))
        #expect(text.hasSuffix("# EOF\n"))
    }

    @Test func noRawControlCharacter() {
        let hostile = String((0..<0xA0).compactMap { Unicode.Scalar($0) }.map(Character.init))
        let family = MetricFamily("x", help: hostile, kind: .gauge, samples: [.init([.init("v", hostile)], value: 1)])
        for format in [ExpositionFormat.prometheusText, .openMetrics] {
            let text = MetricsExposition.render([family], format: format)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == (format == .openMetrics ? 5 : 4))  // HELP, TYPE, sample, (EOF), ""
            #expect(
                !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) })
        }
    }

    @Test(arguments: [
        (0.0, "0"), (-0.0, "0"), (3, "3"), (-7, "-7"), (0.25, "0.25"), (1796222434.714, "1796222434.714"),
        (Double.nan, "NaN"), (Double.infinity, "+Inf"), (-Double.infinity, "-Inf"), (1e20, "1e+20"),
    ])
    func numbers(value: Double, text: String) {
        let family = MetricFamily("n", help: "n", kind: .gauge, samples: [.init(value: value)])
        #expect(MetricsExposition.render([family], format: .prometheusText).hasSuffix("\nn \(text)\n"))
    }

    @Test(
        arguments: [
            (nil, ExpositionFormat.prometheusText),
            ("text/plain", .prometheusText),
            ("application/openmetrics-text; version=1.0.0; charset=utf-8", .openMetrics),
            (
                "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
                .openMetrics
            ),
            ("APPLICATION/OPENMETRICS-TEXT", .openMetrics),
            ("application/openmetrics-text; q=0", .prometheusText),
            ("text/plain;version=0.0.4;q=1,*/*;q=0.1", .prometheusText),
        ] as [(String?, ExpositionFormat)])
    func negotiation(accept: String?, format: ExpositionFormat) {
        #expect(ExpositionFormat(accept: accept) == format)
    }
}
