import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How another thread stops a polling loop (the backends' threads): a flag, and a pipe whose
/// read end the loop polls beside its descriptors, so ``stop()`` wakes it at once.
package final class LoopWaker: Sendable {
    /// The descriptor the loop polls for reading.
    package let descriptor: Int32
    private let writeEnd: Int32
    private let stopped = Atomic(false)

    /// Makes the pipe (both ends non-blocking, closed on exec).
    ///
    /// - Throws: ``DiscoveryError`` when no pipe can be made.
    package init() throws(DiscoveryError) {
        var fds: [Int32] = [0, 0]
        let made = pipe(&fds) == 0
        if made {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        guard made else {
            throw DiscoveryError(kind: .other, message: "cannot make a pipe: \(systemErrorMessage(errno))")
        }
        descriptor = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    /// Whether ``stop()`` was called.
    package var isStopped: Bool { stopped.load(ordering: .sequentiallyConsistent) }

    /// Sets the flag and wakes the loop. From any thread.
    package func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Wakes the loop without stopping it (it then runs its owner's tick). From any thread.
    package func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe after a wake-up.
    package func drain() {
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) > 0 {}
    }

    /// The `poll` timeout that wakes just after `deadline` (nil: `idle`), in milliseconds,
    /// never negative, clamped to `Int32`.
    package static func pollTimeout(until deadline: ContinuousClock.Instant?, idle: Int32 = 1000) -> Int32 {
        guard let deadline else { return idle }
        return Int32(clamping: max(.zero, ContinuousClock.now.duration(to: deadline)).roundedUpMilliseconds)
    }
}

extension Duration {
    /// The whole milliseconds plus one (a timer armed with it fires after the duration, not
    /// before); saturates instead of overflowing.
    package var roundedUpMilliseconds: Int64 {
        let (milliseconds, overflow) = components.seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return components.seconds < 0 ? .min : .max }
        let (total, overflowAgain) = milliseconds.addingReportingOverflow(
            components.attoseconds / 1_000_000_000_000_000 + 1)
        return overflowAgain ? .max : total
    }
}
