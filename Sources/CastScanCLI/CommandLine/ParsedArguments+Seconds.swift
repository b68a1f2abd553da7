extension ParsedArguments {
    /// The value of `option` as a number of seconds within `range` (`--timeout 2.5`); nil when
    /// the option is not given.
    ///
    /// - Throws: ``UsageError/invalidValue(option:value:expected:)`` saying the range, for a
    ///   value that is not a finite number within it.
    func seconds(of option: OptionDeclaration, in range: ClosedRange<Double>) throws(UsageError) -> Double? {
        let expected = "a number of seconds from \(Self.bound(range.lowerBound)) to \(Self.bound(range.upperBound))"
        return try value(of: option, expected: expected) { text -> Double? in
            guard let value = Double(text), value.isFinite, range.contains(value) else { return nil }
            return value
        }
    }

    /// A bound as help and errors write it: `1`, `0.1`, `3600`.
    private static func bound(_ value: Double) -> String {
        value == value.rounded() && value.magnitude < 1e15 ? String(Int64(value)) : String(value)
    }
}
