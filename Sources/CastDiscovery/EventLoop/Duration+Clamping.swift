extension Duration {
    /// The longest duration made from a number of seconds: about 31 years, far below the
    /// point where the conversion from `Double` would trap.
    package static let longestSeconds = 1e9

    /// `seconds` as a duration, clamped to 0...``longestSeconds`` (NaN gives 0): for every
    /// conversion of a computed number of seconds, which `Duration.seconds(_:)` would trap on
    /// when it is huge or not finite.
    package static func seconds(clamping seconds: Double) -> Duration {
        guard seconds.isFinite, seconds > 0 else { return seconds == .infinity ? .seconds(longestSeconds) : .zero }
        return .seconds(min(seconds, longestSeconds))
    }

    /// The duration in seconds as people read it, to the millisecond, without trailing zeros:
    /// `2`, `1.5`, `4.959`.
    package var secondsText: String {
        let milliseconds = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000)" : "\(Double(milliseconds) / 1000)"
    }

    /// The duration in seconds, as a floating-point number.
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
