import CastDiscovery
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How another thread stops a polling loop: a flag, and a pipe whose read end the loop polls
/// beside its sockets, so ``stop()`` wakes it at once.
final class LoopWaker: Sendable {
    /// The descriptor the loop polls for reading.
    let descriptor: Int32
    private let writeEnd: Int32
    private let stopped = Atomic(false)

    /// Makes the pipe (both ends non-blocking, closed on exec).
    ///
    /// - Throws: ``DiscoveryError`` when no pipe can be made.
    init() throws(DiscoveryError) {
        var fds: [Int32] = [0, 0]
        let made = pipe(&fds) == 0
        if made {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        guard made else { throw DiscoveryError(kind: .other, message: "cannot make a pipe: \(systemErrorMessage(errno))") }
        descriptor = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        close(descriptor)
        close(writeEnd)
    }

    /// Whether ``stop()`` was called.
    var isStopped: Bool { stopped.load(ordering: .sequentiallyConsistent) }

    /// Sets the flag and wakes the loop. From any thread.
    func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe after a wake-up.
    func drain() {
        var byte: UInt8 = 0
        while read(descriptor, &byte, 1) > 0 {}
    }
}
