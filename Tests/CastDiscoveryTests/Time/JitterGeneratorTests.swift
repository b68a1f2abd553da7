import CastDiscovery
import Foundation
import Testing

@Suite("JitterGenerator and RetrySchedule: jitter from a given generator, the same delays from the same seed")
struct JitterGeneratorTests {
    @Test("the generator is SplitMix64: its reference implementation's first numbers for seed 1234567")
    func splitMix64Vector() {
        // The reference C implementation (Vigna, splitmix64.c) from x = 1234567.
        var generator = JitterGenerator(seed: 1_234_567)
        let first = (0..<5).map { _ in generator.next() }
        #expect(
            first == [
                6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
                4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
            ])
    }

    @Test("a fraction is the top 53 bits of the next number, in 0..<1")
    func fraction() {
        var generator = JitterGenerator(seed: 7)
        var copy = generator
        for _ in 0..<1000 {
            let fraction = generator.nextFraction()
            #expect(fraction == Double(copy.next() >> 11) / 9_007_199_254_740_992)
            #expect(fraction >= 0 && fraction < 1)
        }
    }

    @Test("a copy draws on its own: each owner keeps its generator, the same seed gives the same numbers")
    func copiesAreIndependent() {
        var first = JitterGenerator(seed: 99)
        var second = first
        _ = first.next()
        _ = first.next()
        #expect(second.next() == JitterGenerator(seed: 99).nextCopy())
        #expect(JitterGenerator.seededFromSystem() != JitterGenerator.seededFromSystem())
    }

    @Test("backoff doubles to the cap, each wait the exact upper-half delay the seed gives")
    func exactDelays() {
        let schedule = RetrySchedule(initialDelay: .seconds(1), maximumDelay: .seconds(8))
        var jitter = JitterGenerator(seed: 42)
        // From SplitMix64(42) by the reference implementation: delay/2 + delay/2 * (u >> 11) / 2^53,
        // in microseconds, for the capped delays 1, 2, 4, 8, 8, 8 and 8 s.
        let expected: [(failures: Int, microseconds: Int)] = [
            (1, 870_782), (2, 1_159_910), (3, 2_557_202), (4, 5_376_763), (5, 4_152_121), (60, 7_472_912),
            (Int.max, 4_873_621),
        ]
        for (failures, microseconds) in expected {
            let wait = schedule.delay(afterFailures: failures, jitter: &jitter)
            #expect(Int((wait.seconds * 1e6).rounded()) == microseconds, "after \(failures) failures: \(wait)")
        }
    }

    @Test("every wait lies in the upper half of its capped delay, for any seed", arguments: [0, 1, 2, 3, UInt64.max])
    func bounds(seed: UInt64) {
        let schedule = RetrySchedule(initialDelay: .seconds(1), maximumDelay: .seconds(8))
        var jitter = JitterGenerator(seed: seed)
        for (failures, delay) in [(0, 1.0), (1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (60, 8.0), (Int.max, 8.0)] {
            var waits: Set<Duration> = []
            for _ in 0..<200 {
                let wait = schedule.delay(afterFailures: failures, jitter: &jitter)
                waits.insert(wait)
                #expect(wait.seconds >= delay / 2 && wait.seconds < delay, "after \(failures) failures: \(wait)")
            }
            #expect(waits.count > 190, "the waits are jittered")
        }
    }

    @Test("generators on two threads at once, each its own: what ThreadSanitizer must find clean")
    func twoThreads() async {
        let schedule = RetrySchedule(initialDelay: .milliseconds(20), maximumDelay: .seconds(1))
        let totals = await withTaskGroup(of: Double.self) { group in
            for seed in [UInt64(1), 2] {
                group.addTask {
                    var jitter = JitterGenerator(seed: seed)
                    return (1...10_000).reduce(0) { sum, failures in
                        sum + schedule.delay(afterFailures: failures % 8, jitter: &jitter).seconds
                    }
                }
            }
            return await group.reduce(into: [Double]()) { $0.append($1) }
        }
        var alone: [Double] = []
        for seed in [UInt64(1), 2] {
            var jitter = JitterGenerator(seed: seed)
            alone.append(
                (1...10_000).reduce(0) { sum, failures in
                    sum + schedule.delay(afterFailures: failures % 8, jitter: &jitter).seconds
                })
        }
        #expect(totals.sorted() == alone.sorted(), "each thread drew its own seed's numbers")
    }
}

extension JitterGenerator {
    /// The first number of a copy, leaving this one as it is.
    fileprivate func nextCopy() -> UInt64 {
        var copy = self
        return copy.next()
    }
}
