@testable import CastDiscovery
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("LoopWaker")
struct LoopWakerTests {
    @Test("poll timeouts: just after the deadline, never negative, saturated, idle without one")
    func timeouts() {
        #expect(Duration.milliseconds(250).roundedUpMilliseconds == 251)
        #expect(Duration.zero.roundedUpMilliseconds == 1)
        #expect(Duration.seconds(Int64.max).roundedUpMilliseconds == .max)
        #expect(LoopWaker.pollTimeout(until: nil, idle: 7) == 7)
        #expect(LoopWaker.pollTimeout(until: .now - .seconds(5)) == 1, "a past deadline: at once")
        #expect(LoopWaker.pollTimeout(until: .now + .seconds(1_000_000_000)) == .max)
    }

    @Test("stop sets the flag and wakes the pipe; drain empties it")
    func stop() throws {
        let waker = try LoopWaker()
        #expect(!waker.isStopped)
        func readable() -> Bool {
            var poller = pollfd(fd: waker.descriptor, events: Int16(POLLIN), revents: 0)
            return poll(&poller, 1, 0) == 1
        }
        #expect(!readable())
        waker.stop()
        #expect(waker.isStopped)
        #expect(readable(), "a loop polling the pipe wakes")
        waker.drain()
        #expect(!readable())
    }
}
