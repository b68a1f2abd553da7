@testable import CastDiscovery
import Synchronization
import Testing

@Suite("DiscoveryInbox: the loop's inputs, bounded without dropping any")
struct DiscoveryInboxTests {
    /// The inputs in the order the loop takes them, as short names.
    static func drain(_ inbox: inout DiscoveryInbox) -> [String] {
        var names: [String] = []
        while let input = inbox.take() {
            switch input {
            case .start: names.append("start")
            case .stop: names.append("stop")
            case .backend(let run, _, _): names.append("backend \(run)")
            case .backendEnded(let run, _): names.append("ended \(run)")
            case .deadline: names.append("deadline")
            case .find(let token, _, _, _): names.append("find \(token)")
            case .findEnded(let token): names.append("find ended \(token)")
            }
        }
        return names
    }

    @Test("a repeated start or stop is not queued; an alternation back to back keeps its first two and its last")
    func requests() {
        var inbox = DiscoveryInbox()
        for input: DiscoveryLoop.Input in [.start, .start, .stop, .stop, .start, .stop, .start, .stop, .start] {
            let answered = inbox.post(input)
            #expect(answered == nil)
        }
        #expect(Self.drain(&inbox) == ["start", "stop", "start"])
        // With another input between them, each run of requests is its own.
        for input: DiscoveryLoop.Input in [.start, .stop, .start, .stop, .deadline(run: 1, generation: 1), .start, .start] {
            _ = inbox.post(input)
        }
        #expect(Self.drain(&inbox) == ["start", "stop", "deadline", "start"])
    }

    @Test("backend events: at most the capacity waits, then the reader is refused until the loop takes one")
    func backendBound() {
        var inbox = DiscoveryInbox()
        for _ in 0..<DiscoveryInbox.backendCapacity {
            let taken = inbox.postBackend(.backend(run: 1, source: 0, .resolvesPending(0)))
            #expect(taken)
        }
        #expect(!inbox.hasRoomForBackend)
        let refused = !inbox.postBackend(.backend(run: 1, source: 0, .resolvesPending(1)))
        #expect(refused)
        _ = inbox.post(.stop)                        // requests are never refused
        _ = inbox.take()
        let takenAgain = inbox.postBackend(.backend(run: 1, source: 0, .resolvesPending(1)))
        #expect(takenAgain)
        #expect(Self.drain(&inbox).count == DiscoveryInbox.backendCapacity + 1)
    }

    @Test("the manager's reader waits for room, and goes on when the loop takes")
    func readerWaits() async throws {
        let inbox = WaitableQueue(DiscoveryInbox())
        let sent = Mutex(0)
        let reader = Task {
            for _ in 0..<(DiscoveryInbox.backendCapacity + 10) {
                await inbox.send(.backend(run: 1, source: 0, .resolvesPending(0)))
                sent.withLock { $0 += 1 }
            }
        }
        // However slowly the reader runs (a parallel test run on 2 loaded cores starved it past a
        // fixed 100 ms once, past 20 s another time: the deadline only guards against a hang), it
        // fills the inbox and then waits there: still full, not done, a while later.
        let deadline = ContinuousClock.now + .seconds(600)
        while inbox.read(\.hasRoomForBackend), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!inbox.read(\.hasRoomForBackend), "the reader filled the inbox")
        // A deliberate "nothing more within 100 ms" check: a busy machine can only hide a reader
        // that does not wait, never fail one that does.
        try await Task.sleep(for: .milliseconds(100))
        #expect(!inbox.read(\.hasRoomForBackend), "the reader waits with the inbox full")
        #expect(sent.withLock { $0 } == DiscoveryInbox.backendCapacity, "the reader sent no more than fit")
        for _ in 0..<(DiscoveryInbox.backendCapacity + 10) { _ = await inbox.next() }
        await reader.value
        inbox.finish()
        let end = await inbox.next()
        #expect(end == nil)
    }

    @Test("a find whose caller gave up before the loop took it is answered with nil at once and leaves the queue")
    func abandonedFind() async {
        let inbox = WaitableQueue(DiscoveryInbox())
        let device = await withCheckedContinuation { (continuation: CheckedContinuation<CastDevice?, Never>) in
            inbox.post(.find(token: 1, uniqueID: "googlecast:1", timeout: .seconds(5), continuation))
            inbox.post(.findEnded(token: 1))
        }
        #expect(device == nil)
        inbox.finish()
        let left = await inbox.next()
        #expect(left == nil, "neither the find nor its end waits")
    }
}
