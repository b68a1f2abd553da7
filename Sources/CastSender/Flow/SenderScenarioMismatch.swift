/// The first step of a scenario whose snapshot differs from what the file expects.
public struct SenderScenarioMismatch: Sendable, Hashable, CustomStringConvertible {
    /// One field that differs.
    public struct Difference: Sendable, Hashable, CustomStringConvertible {
        /// The field's name, as in the file's `expect`.
        public var field: String
        /// The expected value, as text.
        public var expected: String
        /// The value the flow produced, as text.
        public var actual: String

        /// Creates a difference.
        public init(field: String, expected: String, actual: String) {
            self.field = field
            self.expected = expected
            self.actual = actual
        }

        /// `field: expected X, got Y`.
        public var description: String { "\(field): expected \(expected), got \(actual)" }
    }

    /// The scenario file.
    public var file: String
    /// The step's index in `steps` (from 0).
    public var stepIndex: Int
    /// The step's input.
    public var input: SenderFlowInput
    /// Every checked field that differs.
    public var differences: [Difference]
    /// The whole snapshot the flow produced.
    public var actual: SenderFlowStep

    /// Creates a mismatch.
    public init(
        file: String, stepIndex: Int, input: SenderFlowInput, differences: [Difference], actual: SenderFlowStep
    ) {
        self.file = file
        self.stepIndex = stepIndex
        self.input = input
        self.differences = differences
        self.actual = actual
    }

    /// The file and step, one line per differing field, then the whole snapshot.
    public var description: String {
        var lines = ["\(file): steps[\(stepIndex)] (\(input)): \(differences.count) field(s) differ"]
        lines += differences.map { "  \($0)" }
        lines.append("  actual snapshot:")
        lines += actual.description.split(separator: "\n", omittingEmptySubsequences: false).map { "    \($0)" }
        return lines.joined(separator: "\n")
    }
}
