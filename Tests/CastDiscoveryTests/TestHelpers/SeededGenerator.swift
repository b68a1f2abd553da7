import CastDiscovery

/// Random numbers for generated test input: the same seed always gives the same sequence (the
/// library's ``JitterGenerator``, SplitMix64), so a failing input can be made again.
struct SeededGenerator: RandomNumberGenerator {
    private var numbers: JitterGenerator

    /// Creates a generator whose sequence is fixed by `seed`.
    init(seed: UInt64) {
        numbers = JitterGenerator(seed: seed)
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        numbers.next()
    }

    /// `count` random bytes.
    mutating func bytes(count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &self) }
    }
}
