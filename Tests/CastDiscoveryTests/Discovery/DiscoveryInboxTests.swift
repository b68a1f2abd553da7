@testable import CastDiscovery
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
            case .sourceReady(let run, let source): names.append("source \(run).\(source)")
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
        for input: DiscoveryLoop.Input in [
            .start, .stop, .start, .stop, .deadline(run: 1, generation: 1), .start, .start,
        ] {
            _ = inbox.post(input)
        }
        #expect(Self.drain(&inbox) == ["start", "stop", "deadline", "start"])
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
