/// Writes metric families as a scrape's body, in Prometheus' text format or OpenMetrics.
public enum MetricsExposition {
    /// The exposition of `families`, in order, in `format`.
    public static func render(_ families: [MetricFamily], format: ExpositionFormat) -> String {
        var out = ""
        out.reserveCapacity(families.reduce(0) { $0 + 128 + $1.samples.count * 96 })
        for family in families {
            let typeName = format == .prometheusText && family.kind == .counter ? family.name + "_total" : family.name
            out += "# HELP \(typeName) \(escapeHelp(family.help, format: format))\n"
            out += "# TYPE \(typeName) \(family.kind.rawValue)\n"
            let sampleName = family.kind == .counter ? family.name + "_total" : family.name
            for sample in family.samples {
                out += sampleName
                if !sample.labels.isEmpty {
                    out += "{"
                    for (index, label) in sample.labels.enumerated() {
                        if index > 0 { out += "," }
                        out += label.name
                        out += "=\""
                        out += escapeLabelValue(label.value)
                        out += "\""
                    }
                    out += "}"
                }
                out += " "
                out += number(sample.value)
                out += "\n"
            }
        }
        if format == .openMetrics { out += "# EOF\n" }
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
    static func number(_ value: Double) -> String {
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
