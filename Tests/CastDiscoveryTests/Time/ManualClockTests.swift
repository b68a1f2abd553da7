@testable import CastDiscovery
import Testing

@Suite("ManualClock", .timeLimit(.minutes(10)))
struct ManualClockTests {
    /// The deadlines of the sleepers that woke.
    final class Woken: Sendable {
        let list = LockedValue<[Int]>([])
    }

    @Test("sleepers wake when the clock reaches their deadline, in deadline order, and not before")
    func wakesInOrder() async throws {
        let clock = ManualClock()
        let start = clock.now
        let woken = Woken()
        let sleepers = [300, 100, 200].map { ms in
            Task {
                try await clock.sleep(until: start + .milliseconds(ms), tolerance: nil)
                woken.list.withLock { $0.append(ms) }
            }
        }
        await clock.waitForSleepers(3)
        clock.advance(by: .milliseconds(99))
        #expect(clock.sleeperCount == 3, "nobody's deadline came")
        clock.advance(by: .milliseconds(101))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(100))
        for sleeper in sleepers { try await sleeper.value }
        #expect(Set(woken.list.withLock { $0 }) == [100, 200, 300])
        #expect(clock.now == start + .milliseconds(300))
    }

    @Test("a deadline already reached returns at once; a cancelled sleeper throws and is gone")
    func dueAndCancelled() async throws {
        let clock = ManualClock()
        try await clock.sleep(until: clock.now, tolerance: nil)
        try await clock.sleep(for: .zero)
        let sleeper = Task { try await clock.sleep(for: .seconds(3600)) }
        await clock.waitForSleepers(1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await cancelledFirst.value }
    }

    @Test("moving the clock backwards does nothing")
    func neverBackwards() {
        let clock = ManualClock()
        let start = clock.now
        clock.advance(by: .seconds(-5))
        #expect(clock.now == start)
    }
}
