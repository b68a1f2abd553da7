extension Array where Element == CheckFinding {
    /// The findings, most serious first, keeping their order within a severity.
    func orderedBySeverity() -> [CheckFinding] {
        FindingSeverity.allCases.reversed().flatMap { severity in
            filter { $0.severity == severity }
        }
    }
}
