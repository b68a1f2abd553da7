/// The random numbers that jitter is drawn from, given to whatever draws jitter as its clock is:
/// ``seededFromSystem()`` where a program runs, a fixed seed in a test, which then knows every
/// delay in advance.
///
/// A value with eight bytes of state (the SplitMix64 generator), so that each owner keeps a copy
/// of its own and no two threads ever draw from one generator. Good enough for spreading retries
/// and refreshes; not for anything that must stay secret.
public struct JitterGenerator: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    /// A generator that always yields the same numbers from `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// A generator seeded from the system's random numbers: what a program gives its components.
    public static func seededFromSystem() -> JitterGenerator {
        JitterGenerator(seed: UInt64.random(in: .min ... .max))
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A fraction in `0..<1`: the top 53 bits of the next number, as a `Double` holds them.
    public mutating func nextFraction() -> Double {
        Double(next() >> 11) * 0x1p-53
    }
}
