@testable import CastDiscovery
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("PollLoop")
struct PollLoopTests {
    /// An owner that counts its ticks and asks for one at `deadline`. It stops the loop itself
    /// after ``tickLimit`` ticks or ``timeLimit``, so a test that goes wrong fails instead of
    /// spinning for ever.
    final class Owner: PollLoopOwner, @unchecked Sendable {
        static let tickLimit = 10_000
        static let timeLimit: Duration = .seconds(20)

        let loop: PollLoop
        let created = ContinuousClock.now
        var deadline: ContinuousClock.Instant?
        var ticks: [ContinuousClock.Instant] = []
        var onTick: ((Owner) -> Void)?
        /// Whether the owner had to stop the loop itself.
        private(set) var gaveUp = false

        init(_ loop: PollLoop) { self.loop = loop }

        func nextDeadline() -> ContinuousClock.Instant? { deadline.map { min($0, created + Self.timeLimit) } }

        func tick(at now: ContinuousClock.Instant) {
            loop.assertOnLoop()
            ticks.append(now)
            onTick?(self)
            if ticks.count >= Self.tickLimit || now - created >= Self.timeLimit {
                gaveUp = true
                loop.stop()
            }
        }
    }

    /// A pipe both of whose ends close with it.
    final class Pipe: Sendable {
        let read: Int32
        let write: Int32

        init() throws {
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw PollLoop.Failure(reason: "no pipe") }
            for end in fds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            read = fds[0]
            write = fds[1]
            _ = fcntl(read, F_SETFL, O_NONBLOCK)
        }

        func send() {
            var byte: UInt8 = 1
            _ = Glibc.write(write, &byte, 1)
        }

        func drain() {
            var byte: UInt8 = 0
            while Glibc.read(read, &byte, 1) > 0 {}
        }

        deinit {
            close(read)
            close(write)
        }
    }

    /// Runs the loop of `owner` on a thread of its own; returns how it ended.
    static func run(_ owner: Owner) async throws -> PollLoop.Failure? {
        try await runTimed(owner).failure
    }

    /// Runs the loop of `owner` on a thread of its own; returns how it ended and when, as read
    /// on the loop's thread (the awaiting task may resume much later on a loaded machine).
    static func runTimed(_ owner: Owner) async throws -> (failure: PollLoop.Failure?, ended: ContinuousClock.Instant) {
        try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<(failure: PollLoop.Failure?, ended: ContinuousClock.Instant), any Error>)
            in
            do throws(LoopThread.Failure) {
                try LoopThread.start {
                    let failure = owner.loop.run(owner)
                    continuation.resume(returning: (failure, ContinuousClock.now))
                }
            } catch {
                continuation.resume(throwing: error)
            }
        }
    }

    @Test("a ready descriptor's handler runs on the loop, then the owner's tick; stop ends it without failure")
    func handlersThenTick() async throws {
        let loop = try PollLoop()
        let owner = Owner(loop)
        let pipe = try Pipe()
        let calls = LockedValue<[String]>([])
        loop.register(pipe.read, name: "the test pipe") { events in
            loop.assertOnLoop()
            #expect(events & Int16(POLLIN) != 0)
            pipe.drain()
            calls.withLock { $0.append("read") }
        }
        owner.onTick = { owner in
            let seen = calls.withLock { calls in
                calls.append("tick")
                return calls
            }
            if seen == ["tick"] { pipe.send() }
            if seen.contains("read") { owner.loop.stop() }
        }
        pipe.send()
        let failure = try await Self.run(owner)
        #expect(failure == nil)
        let seen = calls.withLock { $0 }
        #expect(seen.first == "read", "the descriptor ready at start is handled before the first tick")
        #expect(seen.dropFirst().first == "tick")
    }

    @Test("the owner's deadline wakes the loop at that instant, not before")
    func deadline() async throws {
        let loop = try PollLoop()
        let owner = Owner(loop)
        let start = ContinuousClock.now
        owner.deadline = start + .milliseconds(120)
        owner.onTick = { owner in
            if let deadline = owner.deadline, ContinuousClock.now >= deadline { owner.loop.stop() }
        }
        #expect(try await Self.run(owner) == nil)
        #expect(!owner.gaveUp)
        #expect(owner.ticks.last.map { $0 - start >= .milliseconds(120) } == true)
        #expect(owner.ticks.count < 10, "no busy wait before the deadline (\(owner.ticks.count) ticks)")
    }

    @Test("a descriptor that is not open ends the loop with a failure that names it")
    func closedDescriptor() async throws {
        let loop = try PollLoop()
        let owner = Owner(loop)
        // A descriptor number at the process's limit can never be open. (One closed by the test
        // could be taken at once by another test running in parallel.)
        var limit = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let neverOpen = Int32(clamping: limit.rlim_cur)
        loop.register(neverOpen, name: "the lost socket") { _ in }
        owner.deadline = .now + .seconds(5)
        let failure = try await Self.run(owner)
        #expect(failure?.reason == "the lost socket was closed under the loop")
        #expect(!owner.gaveUp)
    }

    @Test("an injected poll failure ends the loop with that failure at the instant given, however idle the owner")
    func injected() async throws {
        let loop = try PollLoop()
        let start = ContinuousClock.now
        loop.injectFailure(at: start + .milliseconds(100))
        let owner = Owner(loop)
        owner.deadline = start + .seconds(30)
        let (failure, ended) = try await Self.runTimed(owner)
        #expect(failure?.reason.hasPrefix("poll failed: ") == true)
        #expect(ended - start < .seconds(5), "the failure waits for no owner deadline (30 s)")
        #expect(owner.ticks.isEmpty, "no round before the failure: \(owner.ticks.count)")
    }

    @Test("a handler that deregisters another ready descriptor keeps it from being called in that round")
    func deregisterInRound() async throws {
        let loop = try PollLoop()
        let owner = Owner(loop)
        let first = try Pipe(), second = try Pipe()
        let secondCalls = LockedValue(0)
        var secondToken: PollLoop.Token?
        loop.register(first.read, name: "first") { _ in
            first.drain()
            if let secondToken { loop.deregister(secondToken) }
        }
        secondToken = loop.register(second.read, name: "second") { _ in
            second.drain()
            secondCalls.withLock { $0 += 1 }
        }
        owner.onTick = { $0.loop.stop() }
        first.send()
        second.send()
        #expect(try await Self.run(owner) == nil)
        #expect(secondCalls.withLock { $0 } == 0)
    }
}
