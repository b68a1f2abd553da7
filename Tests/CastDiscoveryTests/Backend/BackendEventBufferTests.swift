import CastDiscovery
import CastTestSupport
import Foundation
import Testing

@Suite("BackendEventBuffer: bounded, and no state lost", .timeLimit(.minutes(10)))
struct BackendEventBufferTests {
    typealias Script = StartupScript
    static let base = StartupScript.base

    static func read(_ stream: AsyncStream<BackendEvent>) async -> [BackendEvent] {
        var events: [BackendEvent] = []
        for await event in stream { events.append(event) }
        return events
    }

    static func serviceEvents(_ events: [BackendEvent]) -> [BackendEvent] {
        events.filter { event in
            switch event {
            case .found, .updated, .removed: true
            default: false
            }
        }
    }

    @Test(
        "a stalled consumer: 20 devices updated 1,000 times each while nobody reads; then every device's last state, the rest folded and counted, the buffer bounded"
    )
    func stalledConsumer() async {
        let (stream, buffer) = BackendEventBuffer.makeStream()
        let capacity = buffer.capacity
        #expect(capacity == BackendEventBuffer.defaultCapacity)
        var yielded = 0
        var mostBuffered = 0
        func yield(_ event: BackendEvent) {
            buffer.yield(event)
            yielded += 1
            if yielded % 50 == 0 { mostBuffered = max(mostBuffered, buffer.bufferedEvents) }
        }
        yield(.stateChanged(.running))
        yield(.browseStarted(browseType: Self.base))
        for index in 0..<20 {
            yield(.copyAdded(Script.copy(index, .ipv4), browseType: Self.base))
            yield(.found(Script.service(index)))
        }
        for version in 1...1_000 {
            for index in 0..<20 { yield(.updated(Script.service(index, version: version))) }
            yield(.resolvesPending(version % 3))
            if version % 100 == 0 { yield(.statistics(BackendStatistics())) }
        }
        yield(.removed(Script.service(0, version: 1_000)))
        yield(.found(Script.service(20)))  // found and gone while the consumer is behind:
        yield(.removed(Script.service(20)))  // it never hears of it
        yield(.found(Script.service(21, version: 7)))
        yield(.resolvesPending(0))
        yield(.allForNow(browseType: Self.base))
        buffer.finish()
        // 21,058 events: 8,192 wait in order; the rest fold into one entry per device, count and
        // milestone.
        #expect(yielded == 21_058)
        #expect(mostBuffered <= capacity + 30, "at most \(mostBuffered) events waited")

        let events = await Self.read(stream)
        var known: [ServiceKey: DiscoveredService] = [:]
        Script.mirror(events, into: &known)
        var expected: [ServiceKey: DiscoveredService] = [:]
        for index in 1..<20 { expected[Script.key(index)] = Script.service(index, version: 1_000) }
        expected[Script.key(21)] = Script.service(21, version: 7)
        #expect(known == expected, "every device's last state, device 0 removed, 20 never listed")
        #expect(!events.contains(.found(Script.service(20))) && !events.contains(.removed(Script.service(20))))
        // The fold's order: services, then the counts, then the milestones.
        #expect(events.last == .allForNow(browseType: Self.base))
        let lastService = events.lastIndex { !Self.serviceEvents([$0]).isEmpty } ?? 0
        let lastPending = events.lastIndex { if case .resolvesPending = $0 { true } else { false } } ?? 0
        #expect(events[lastPending] == .resolvesPending(0) && lastPending > lastService)
        // Counted: what the consumer did not receive on its own, also in the statistics it reads.
        #expect(buffer.coalescedEvents == yielded - events.count)
        #expect(buffer.coalescedEvents > 12_000)
        guard case .statistics(let counts)? = events.last(where: { if case .statistics = $0 { true } else { false } })
        else {
            Issue.record("no statistics after the fold"); return
        }
        #expect(counts.coalescedEvents == buffer.coalescedEvents)
        #expect(events.count < capacity + 40)
    }

    @Test(
        "while the consumer is behind, milestones follow the state before them, repeats keep their last place, and the count is said"
    )
    func foldOrder() async {
        let (stream, buffer) = BackendEventBuffer.makeStream(capacity: 3)
        let a = Script.service(1), b = Script.service(2), c = Script.service(3)
        for event: BackendEvent in [.stateChanged(.running), .browseStarted(browseType: Self.base), .found(a)] {
            buffer.yield(event)
        }
        // Full: the rest folds.
        let folded: [BackendEvent] = [
            .copyAdded(Script.copy(2, .ipv4), browseType: Self.base), .resolvesPending(1),
            .allForNow(browseType: Self.base),  // before b was found...
            .found(b), .resolvesPending(0),
            .updated(Script.service(1, version: 1)), .updated(Script.service(1, version: 2)),
            .found(c), .removed(c),
            .stateChanged(.daemonLost), .stateChanged(.connecting), .stateChanged(.running),
        ]
        folded.forEach(buffer.yield)
        buffer.finish()
        let events = await Self.read(stream)
        var statistics = BackendStatistics()
        // The copy (forgotten with the daemon), resolvesPending(1), the first update of a, c
        // found and removed.
        statistics.coalescedEvents = 5
        #expect(
            events == [
                .stateChanged(.running), .browseStarted(browseType: Self.base), .found(a),
                .stateChanged(.daemonLost),  // the merge forgets the copies here
                .found(b), .updated(Script.service(1, version: 2)),  // a was known before: updated
                .resolvesPending(0), .statistics(statistics),  // a backend that sends none
                .allForNow(browseType: Self.base),  // ...and is after it now
                .stateChanged(.connecting), .stateChanged(.running),
            ])
        #expect(buffer.coalescedEvents == 5)
    }

    @Test("a service the consumer knew, removed while it is behind, is reported removed; one found again is updated")
    func knownServices() async {
        let (stream, buffer) = BackendEventBuffer.makeStream(capacity: 1)
        let a = Script.service(1), b = Script.service(2)
        buffer.yield(.found(a))
        var reader = stream.makeAsyncIterator()
        #expect(await reader.next() == .found(a))
        buffer.yield(.found(b))  // waits in order
        buffer.yield(.removed(a))  // folded: a was known
        buffer.yield(.removed(b))  // folded: b was queued, so known by then
        buffer.yield(.found(b))
        buffer.finish()
        var rest: [BackendEvent] = []
        while let event = await reader.next() { rest.append(event) }
        #expect(rest.prefix(3) == [.found(b), .removed(a), .updated(b)])
        #expect(rest.count == 4, "and statistics: one event merged")
    }

    @Test("send waits for room instead: nothing folds, every event arrives in order")
    func sendWaits() async throws {
        let (stream, buffer) = BackendEventBuffer.makeStream(capacity: 4)
        let sent = (0..<200).map { BackendEvent.resolvesPending($0) }
        let producer = Task {
            for event in sent { await buffer.send(event) }
            buffer.finish()
        }
        // However slowly the producer runs on a loaded machine, it fills the buffer, then waits.
        let deadline = ContinuousClock.now + .seconds(600)
        while buffer.bufferedEvents < 4, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        // A deliberate "nothing more within 100 ms" check: a busy machine can only hide a sender
        // that does not wait, never fail one that does.
        try await Task.sleep(for: .milliseconds(100))
        #expect(buffer.bufferedEvents == 4, "the sender waits with the buffer full")
        let events = await Self.read(stream)
        await producer.value
        #expect(events == sent)
        #expect(buffer.coalescedEvents == 0)
    }

    @Test("onTermination runs once: when the producer finishes, or when the consumer lets go or is cancelled")
    func termination() async throws {
        let runs = LockedValue(0)
        // Let go without reading.
        let abandoned: BackendEventBuffer = {
            let (stream, buffer) = BackendEventBuffer.makeStream()
            buffer.onTermination = { runs.withLock { $0 += 1 } }
            _ = stream
            return buffer
        }()
        #expect(runs.withLock { $0 } == 1)
        abandoned.yield(.resolvesPending(1))
        #expect(abandoned.bufferedEvents == 0, "nobody reads: nothing kept")
        abandoned.finish()
        #expect(runs.withLock { $0 } == 1)

        // Cancelled while waiting: once it has read the one event there is, its next read waits.
        let (stream, buffer) = BackendEventBuffer.makeStream()
        let cancelled = LockedValue(false)
        buffer.onTermination = { cancelled.withLock { $0 = true } }
        let read = LockedValue(0)
        let consumer = Task {
            var events: [BackendEvent] = []
            for await event in stream {
                events.append(event)
                read.withLock { $0 += 1 }
            }
            return events
        }
        buffer.yield(.resolvesPending(1))
        #expect(await Eventually.wait { read.withLock { $0 } > 0 }, "the consumer read the event")
        consumer.cancel()
        #expect(await consumer.value == [.resolvesPending(1)])
        #expect(cancelled.withLock { $0 })

        // Finished: runs at once, the consumer still reads what waits.
        let (finishedStream, finished) = BackendEventBuffer.makeStream()
        let ended = LockedValue(0)
        finished.onTermination = { ended.withLock { $0 += 1 } }
        finished.yield(.resolvesPending(3))
        finished.finish()
        #expect(ended.withLock { $0 } == 1)
        #expect(await Self.read(finishedStream) == [.resolvesPending(3)])
        #expect(ended.withLock { $0 } == 1)
    }

    @Test(
        "read directly: events in order; with none waiting the reader is told once, when one comes or the producer finishes; then the end"
    )
    func takenDirectly() {
        let buffer = BackendEventBuffer(capacity: 2)
        let told = LockedValue(0)
        let notify: @Sendable () -> Void = { told.withLock { $0 += 1 } }
        buffer.yield(.resolvesPending(1))
        #expect(buffer.take(orNotify: notify) == .event(.resolvesPending(1)))
        #expect(buffer.take(orNotify: notify) == .waiting)
        #expect(told.withLock { $0 } == 0)
        buffer.yield(.resolvesPending(2))
        buffer.yield(.resolvesPending(3))
        buffer.yield(.resolvesPending(4))
        #expect(told.withLock { $0 } == 1, "told once, however many come")
        // Past the capacity the newest count was folded: nothing of the state is lost.
        var taken: [BackendEvent] = []
        while case .event(let event) = buffer.take(orNotify: notify) { taken.append(event) }
        #expect(taken.first == .resolvesPending(2) && taken.contains(.resolvesPending(4)))
        buffer.finish()
        #expect(told.withLock { $0 } == 2, "the end is told too")
        #expect(buffer.take(orNotify: notify) == .ended)
    }

    @Test(
        "a reader that lets go: the producer's events are let go, onTermination runs once, a waiting notice is dropped")
    func letGo() {
        let buffer = BackendEventBuffer()
        let ended = LockedValue(0)
        let told = LockedValue(0)
        buffer.onTermination = { ended.withLock { $0 += 1 } }
        #expect(buffer.take(orNotify: { told.withLock { $0 += 1 } }) == .waiting)
        buffer.letGo()
        buffer.yield(.resolvesPending(1))
        buffer.finish()
        #expect(buffer.bufferedEvents == 0)
        #expect(ended.withLock { $0 } == 1)
        #expect(told.withLock { $0 } == 0)
    }

    @Test("a stream-only backend is read into a buffer of its own, in order, to its end")
    func relayed() async {
        let (stream, continuation) = AsyncStream<BackendEvent>.makeStream()
        let buffer = BackendEventBuffer.relaying(stream)
        (1...3).forEach { continuation.yield(.resolvesPending($0)) }
        continuation.finish()
        var taken: [BackendEvent] = []
        for await event in buffer.stream() { taken.append(event) }
        #expect(taken == [.resolvesPending(1), .resolvesPending(2), .resolvesPending(3)])
    }
}
