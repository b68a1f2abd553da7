/// One metric family of an exposition: its name, help, type and samples.
public struct MetricFamily: Sendable, Hashable {
    /// The metric types this exporter uses.
    public enum Kind: String, Sendable, Hashable {
        /// A value that goes up and down.
        case gauge
        /// A count that only goes up (restarting at 0 with the process); its samples are named
        /// with `_total`.
        case counter
        /// Facts as labels on one sample of value 1; the family's name ends in `_info`.
        /// OpenMetrics' `info` type (named without `_info` in its `# TYPE` line); a gauge in
        /// Prometheus' text format, which has no such type.
        case info
    }

    /// One sample: label values by label name, in order, and the value.
    public struct Sample: Sendable, Hashable {
        /// The labels (name, value); names must match `[a-zA-Z_][a-zA-Z0-9_]*`.
        public var labels: [Label]
        /// The value.
        public var value: Double

        /// Creates a sample.
        public init(_ labels: [Label] = [], value: Double) {
            self.labels = labels
            self.value = value
        }
    }

    /// A label: its name and value (any text; escaped when written).
    public struct Label: Sendable, Hashable {
        public var name: String
        public var value: String

        /// Creates a label.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The family's name: for a counter without `_total` (the samples carry it); for an info
    /// family with `_info`.
    public var name: String
    /// One line saying what it measures.
    public var help: String
    /// Gauge, counter or info.
    public var kind: Kind
    /// The samples.
    public var samples: [Sample]

    /// Creates a family.
    public init(_ name: String, help: String, kind: Kind, samples: [Sample]) {
        self.name = name
        self.help = help
        self.kind = kind
        self.samples = samples
    }
}
