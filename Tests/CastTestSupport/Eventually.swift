import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Waiting for a condition from a thread of its own, not from the test's task.
///
/// A full parallel test run on two loaded cores has kept the test pool from running any task
/// for over a minute: a task that polls can wake after its deadline, or act after the moment it
/// tests. This thread sees the condition when it comes and can act on it at once; the timeout
/// only guards against a hang.
public enum Eventually {
    /// Checks `condition` about every `interval` until it holds, then runs `action` on the same
    /// thread at once, and returns when it ran; nil when `giveUp` held first (checked after the
    /// condition, so a condition met as the child ends still counts) or `timeout` passed.
    public static func when(
        _ condition: @escaping @Sendable () -> Bool, giveUpIf giveUp: @escaping @Sendable () -> Bool = { false },
        timeout: Duration = .seconds(600), interval: Duration = .milliseconds(1),
        do action: @escaping @Sendable () -> Void = {}
    ) async -> ContinuousClock.Instant? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                guard poll(until: condition, giveUpIf: giveUp, timeout: timeout, interval: interval) else {
                    return continuation.resume(returning: nil)
                }
                action()
                continuation.resume(returning: .now)
            }
        }
    }

    /// Checks `condition` on the calling thread about every `interval` until it holds (true),
    /// or `giveUp` held first (checked after the condition) or `timeout` passed (false). For a
    /// thread that waits anyway; from a task, use ``wait(timeout:interval:giveUpIf:until:)``.
    public static func poll(
        until condition: () -> Bool, giveUpIf giveUp: () -> Bool = { false }, timeout: Duration = .seconds(600),
        interval: Duration = .milliseconds(1)
    ) -> Bool {
        let pause = useconds_t(
            clamping: interval.components.seconds * 1_000_000 + interval.components.attoseconds / 1_000_000_000_000)
        let deadline = ContinuousClock.now + timeout
        while true {
            if condition() { return true }
            if giveUp() || ContinuousClock.now >= deadline { return false }
            usleep(pause)
        }
    }

    /// Waits until `condition` holds (checked as ``when(_:giveUpIf:timeout:interval:do:)``
    /// does); false when `giveUp` held or `timeout` passed first.
    public static func wait(
        timeout: Duration = .seconds(600), interval: Duration = .milliseconds(10),
        giveUpIf giveUp: @escaping @Sendable () -> Bool = { false },
        until condition: @escaping @Sendable () -> Bool
    ) async -> Bool {
        await when(condition, giveUpIf: giveUp, timeout: timeout, interval: interval) != nil
    }
}
