#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a ``PollLoop`` runs between its polls: the owner's timers.
package protocol PollLoopOwner: AnyObject {
    /// When the owner next has something to do without any descriptor being ready; nil for
    /// nothing (the loop then wakes once a second).
    func nextDeadline() -> ContinuousClock.Instant?
    /// Does what is due at `now`; called after every poll, once the ready descriptors' handlers
    /// have run.
    func tick(at now: ContinuousClock.Instant)
}

/// The one poll loop of the poll-driven backends (the mDNS querier, the known-hosts querier, the
/// dns_sd session): descriptors with their handlers, the owner's timers, and a waker that ends
/// the loop from any thread.
///
/// Everything but ``stop()`` belongs to the thread that calls ``run(_:)``;
/// the owner states that with ``assertOnLoop()`` (as swift-nio's `assertInEventLoop`), which
/// also holds on the creating thread before the loop runs. A `poll` that fails (other than
/// being interrupted) or a descriptor that is no longer open ends the loop with a ``Failure``,
/// which the owner reports as a backend failure rather than an ordinary end.
package final class PollLoop: @unchecked Sendable {
    /// Why the loop ended on its own.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// What went wrong, in a few words.
        package var reason: String
        package var description: String { reason }
    }

    /// A registered descriptor, to deregister it.
    package struct Token: Hashable, Comparable, Sendable {
        fileprivate let value: Int
        package static func < (lhs: Token, rhs: Token) -> Bool { lhs.value < rhs.value }
    }

    private struct Registration {
        var descriptor: Int32
        var name: String
        var events: Int16
        var handler: (Int16) -> Void
    }

    private let waker: LoopWaker
    private var registrations: [Token: Registration] = [:]
    private var nextToken = 0
    /// The thread running the loop, while it runs.
    private let loopThread = LockedValue<pthread_t?>(nil)
    /// For tests: the loop fails as if `poll` had failed at its first round from this instant.
    private var injectedFailure: ContinuousClock.Instant?
    /// When the last `poll` returned (on the loop's thread): what was readable then is what the
    /// handlers of that round read.
    package private(set) var polledAt: ContinuousClock.Instant?

    /// Makes the waker.
    ///
    /// In a debug build, `CAST_DISCOVERY_FAIL_POLL_AFTER_MS=N` in the environment makes every
    /// loop fail N milliseconds after it was made, as if `poll` had failed, so tests can see how
    /// a backend's fatal error reaches the user; a release build ignores it.
    ///
    /// - Throws: ``DiscoveryError`` when no pipe can be made for the waker.
    package init() throws(DiscoveryError) {
        waker = try LoopWaker()
        #if DEBUG
        if let text = getenv("CAST_DISCOVERY_FAIL_POLL_AFTER_MS").map({ String(cString: $0) }),
            let milliseconds = Int64(text), (0...86_400_000).contains(milliseconds)
        {
            injectedFailure = .now + .milliseconds(milliseconds)
        }
        #endif
    }

    /// Ends the loop at its next round (at once if it waits in `poll`). From any thread.
    package func stop() {
        waker.stop()
    }

    /// Makes the loop run a round now (its owner's tick), for work handed to it. From any thread.
    package func wake() {
        waker.wake()
    }

    /// Checks (in debug builds) that the caller runs on the loop's thread, or that the loop is
    /// not running (before ``run(_:)`` or after it returned).
    package func assertOnLoop(file: StaticString = #fileID, line: UInt = #line) {
        assert(isOnLoopOrIdle, "called off the poll loop's thread", file: file, line: line)
    }

    private var isOnLoopOrIdle: Bool {
        loopThread.withLock { thread in thread.map { pthread_equal($0, pthread_self()) != 0 } ?? true }
    }

    /// Watches `descriptor` for `events` (input unless told otherwise): `handler` gets the
    /// returned events (`POLLIN`, `POLLOUT`, `POLLERR`, `POLLHUP`) on the loop's thread. `name`
    /// says what it is when it is lost.
    @discardableResult
    package func register(
        _ descriptor: Int32, name: String, events: Int16 = Int16(POLLIN), handler: @escaping (Int16) -> Void
    ) -> Token {
        assertOnLoop()
        nextToken += 1
        let token = Token(value: nextToken)
        registrations[token] = Registration(descriptor: descriptor, name: name, events: events, handler: handler)
        return token
    }

    /// Changes what a registered descriptor is watched for (`POLLOUT` while output waits).
    package func watch(_ token: Token, for events: Int16) {
        assertOnLoop()
        registrations[token]?.events = events
    }

    /// Stops watching a descriptor; a handler not yet called in this round is not called.
    package func deregister(_ token: Token) {
        assertOnLoop()
        registrations[token] = nil
    }

    /// Runs the loop on the calling thread until ``stop()`` or a failure: polls the registered
    /// descriptors and the waker until `owner`'s next deadline, calls the ready descriptors'
    /// handlers (in registration order), then `owner.tick(at:)`. Returns nil when stopped, the
    /// failure otherwise. Every registration is dropped when it returns.
    package func run(_ owner: some PollLoopOwner) -> Failure? {
        loopThread.withLock { $0 = pthread_self() }
        defer {
            registrations = [:]
            loopThread.withLock { $0 = nil }
        }
        while !waker.isStopped {
            let tokens = registrations.keys.sorted()
            var polled = tokens.map { token in
                pollfd(
                    fd: registrations[token]?.descriptor ?? -1, events: registrations[token]?.events ?? 0, revents: 0)
            }
            polled.append(pollfd(fd: waker.descriptor, events: Int16(POLLIN), revents: 0))
            let deadline = [owner.nextDeadline(), injectedFailure].compactMap { $0 }.min()
            let ready = poll(&polled, nfds_t(polled.count), LoopWaker.pollTimeout(until: deadline))
            polledAt = .now
            if let injected = injectedFailure, injected <= .now {
                return Failure(reason: "poll failed: \(systemErrorMessage(EIO)) (injected for a test)")
            }
            if ready < 0 {
                let error = errno
                if error == EINTR { continue }
                return Failure(reason: "poll failed: \(systemErrorMessage(error))")
            }
            if polled[polled.count - 1].revents & Int16(POLLNVAL) != 0 {
                return Failure(reason: "the loop's wake-up pipe was closed")
            }
            for (index, token) in tokens.enumerated() where polled[index].revents != 0 {
                // A handler earlier in this round may have deregistered it.
                guard let registration = registrations[token] else { continue }
                let events = polled[index].revents
                if events & Int16(POLLNVAL) != 0 {
                    return Failure(reason: "\(registration.name) was closed under the loop")
                }
                registration.handler(events)
            }
            if polled[polled.count - 1].revents & Int16(POLLIN) != 0 { waker.drain() }
            owner.tick(at: .now)
        }
        return nil
    }

    /// Makes the loop fail at `instant` as if `poll` had failed then (for tests).
    package func injectFailure(at instant: ContinuousClock.Instant) {
        injectedFailure = instant
    }
}
