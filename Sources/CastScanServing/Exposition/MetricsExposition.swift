/// Writes metric families as a scrape's body, in Prometheus' text format or OpenMetrics.
public enum MetricsExposition {
    /// The exposition of `families`, in order, in `format`.
    public static func render(_ families: [MetricFamily], format: ExpositionFormat) -> String {
        renderFamilies(families, format: format) + end(format: format)
    }

    /// The families' part of an exposition (without the end ``end(format:)`` adds), so that
    /// parts rendered apart can be joined.
    public static func renderFamilies(_ families: [MetricFamily], format: ExpositionFormat) -> String {
        var out = ""
        out.reserveCapacity(families.reduce(0) { $0 + 128 + $1.samples.count * 96 })
        for family in families {
            out += header(family, format: format)
            for sample in family.samples {
                out += series(family, sample.labels)
                out += " "
                out += number(sample.value)
                out += "\n"
            }
        }
        return out
    }

    /// What ends an exposition: `# EOF` in OpenMetrics, nothing in Prometheus' text format.
    public static func end(format: ExpositionFormat) -> String {
        format == .openMetrics ? "# EOF\n" : ""
    }

    /// A family's `# HELP` and `# TYPE` lines.
    public static func header(_ family: MetricFamily, format: ExpositionFormat) -> String {
        let typeName: String
        var kind = family.kind.rawValue
        switch (family.kind, format) {
        case (.counter, .prometheusText): typeName = family.name + "_total"
        case (.info, .prometheusText):
            typeName = family.name
            kind = MetricFamily.Kind.gauge.rawValue
        case (.info, .openMetrics):
            typeName = family.name.hasSuffix("_info") ? String(family.name.dropLast(5)) : family.name
        default: typeName = family.name
        }
        return "# HELP \(typeName) \(escapeHelp(family.help, format: format))\n# TYPE \(typeName) \(kind)\n"
    }

    /// A sample's name and labels (`name{label="value",...}`), escaped, without its value.
    public static func series(_ family: MetricFamily, _ labels: [MetricFamily.Label]) -> String {
        var out = family.kind == .counter ? family.name + "_total" : family.name
        guard !labels.isEmpty else { return out }
        out += "{"
        for (index, label) in labels.enumerated() {
            if index > 0 { out += "," }
            out += label.name
            out += "=\""
            out += escapeLabelValue(label.value)
            out += "\""
        }
        out += "}"
        return out
    }

    /// A label value as both formats write it: backslash, double quote and line feed escaped;
    /// any other control character (which neither format escapes) replaced with U+FFFD.
    public static func escapeLabelValue(_ value: String) -> String {
        guard value.unicodeScalars.contains(where: needsWork) else { return value }
        var out = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case "\"": out.append(contentsOf: "\\\"".unicodeScalars)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case _ where isControl(scalar): out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// A help text: backslash and line feed escaped (and the double quote, for OpenMetrics).
    static func escapeHelp(_ help: String, format: ExpositionFormat) -> String {
        var out = String.UnicodeScalarView()
        for scalar in help.unicodeScalars {
            switch scalar {
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\"" where format == .openMetrics: out.append(contentsOf: "\\\"".unicodeScalars)
            case _ where isControl(scalar): out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// A value as both formats accept it: integers without a fraction, `NaN`, `+Inf`, `-Inf`.
    public static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    private static func needsWork(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\\" || scalar == "\"" || isControl(scalar)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
