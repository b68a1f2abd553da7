import CastDiscovery
@testable import CastDiscoveryReporting
import CastTestSupport
import Foundation
import Testing

/// Opens once, for every waiter: what a gated store waits on.
private actor Gate {
    private var isOpen = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func wait() async {
        guard !isOpen else { return }
        await withCheckedContinuation { waiters.append($0) }
    }

    func open() {
        isOpen = true
        waiters.forEach { $0.resume() }
        waiters = []
    }
}

/// `{"n":index}` as the CLI would hand it over.
private func event(_ index: Int, padding: Int = 0) -> [UInt8] {
    Array("{\"n\":\(index)\(padding > 0 ? ",\"pad\":\"" + String(repeating: "x", count: padding) + "\"" : "")}".utf8)
}

/// A reporter without a collector, on a fresh spool.
private func recordingReporter() throws -> (SpoolDirectory, EventReporter) {
    let directory = try SpoolDirectory()
    return (directory, try EventReporter(configuration: .init(collector: nil, spoolDirectory: directory.path)))
}

/// The `n` of each stored event, oldest first.
private func storedNumbers(_ directory: SpoolDirectory) throws -> [Int] {
    let spool = try EventSpool(directory: directory.path, limits: SpoolLimits())
    return try spool.oldest(limit: 100_000, through: .max).map { stored in
        let object = try JSONSerialization.jsonObject(with: Data(stored.body)) as? [String: Any]
        return object?["n"] as? Int ?? -1
    }
}

@Suite("Report queue: group commit, order, all or nothing, and back-pressure without loss")
struct ReportQueueTests {
    @Test("the events queued when the committer comes are stored in one transaction, with ids first, not parsed again")
    func groupCommit() async throws {
        let (directory, reporter) = try recordingReporter()
        let queue = ReportQueue<Int>(reporter: reporter, capacity: 1000, batchLimit: 256)
        for index in 0..<200 { #expect(await queue.append(.init(event: event(index), payload: index))) }
        queue.finish()
        let before = await reporter.spoolCommits
        let committed = try await queue.commitNext()
        #expect(committed == Array(0..<200))
        #expect(await reporter.spoolCommits == before + 1, "200 events, one transaction")
        #expect(try await queue.commitNext() == nil)
        #expect(try storedNumbers(directory) == Array(0..<200))
        let spool = try EventSpool(directory: directory.path, limits: SpoolLimits())
        let first = try #require(try spool.oldest(limit: 1, through: .max).first)
        #expect(String(decoding: first.body, as: UTF8.self) == "{\"id\":\"\(first.id)\",\"n\":0}")
    }

    @Test(
        "a batch holds at most the batch limit; order is kept across batches, entries without events keep their place")
    func orderAcrossBatches() async throws {
        let (directory, reporter) = try recordingReporter()
        let queue = ReportQueue<Int>(reporter: reporter, capacity: 8, batchLimit: 3)
        let feeder = Task {
            for index in 0..<50 {
                // Every fifth entry only keeps its place (a line that is printed, not stored).
                _ = await queue.append(.init(event: index % 5 == 4 ? nil : event(index), payload: index))
            }
            queue.finish()
        }
        var handed: [Int] = []
        var batches = 0
        let before = await reporter.spoolCommits
        while let batch = try await queue.commitNext() {
            #expect(batch.count <= 3)
            handed += batch
            batches += 1
        }
        await feeder.value
        #expect(handed == Array(0..<50))
        #expect(try storedNumbers(directory) == (0..<50).filter { $0 % 5 != 4 })
        #expect(await reporter.spoolCommits - before <= batches, "one transaction a batch at most")
    }

    @Test("a batch the spool cannot take is stored not at all and handed back not at all; the queue then takes nothing")
    func failureMidBatch() async throws {
        let (directory, reporter) = try recordingReporter()
        let queue = ReportQueue<Int>(reporter: reporter, capacity: 1000, batchLimit: 256)
        for index in 0..<3 { _ = await queue.append(.init(event: event(index), payload: index)) }
        #expect(try await queue.commitNext() == [0, 1, 2])
        // Room for a few more events of 2 KB, not for 200: the transaction fails part way.
        try await reporter.limitSpoolGrowth(toPages: 8)
        for index in 3..<203 { _ = await queue.append(.init(event: event(index, padding: 2000), payload: index)) }
        let before = await reporter.spoolCommits
        do {
            let handed = try await queue.commitNext()
            Issue.record("a batch past the spool's room was handed back: \(handed ?? [])")
        } catch {
            // A full disk: the watch ends with 74.
            if case .spoolFull = error {} else { Issue.record("not a full spool: \(error)") }
        }
        #expect(await reporter.spoolCommits == before)
        #expect(try storedNumbers(directory) == [0, 1, 2], "none of the failed batch is stored")
        #expect(await queue.append(.init(event: event(999), payload: 999)) == false)
        #expect(try await queue.commitNext() == nil)
    }

    @Test("a slow spool makes the feeder wait, with the queue full; once it goes on nothing is lost or reordered")
    func backPressure() async throws {
        let gate = Gate()
        let stored = LockedValue<[[UInt8]]>([])
        let storing = LockedValue(0)
        let queue = ReportQueue<Int>(capacity: 4, batchLimit: 2) { (events) throws(EventReportError) in
            storing.withLock { $0 += 1 }
            await gate.wait()
            stored.withLock { $0 += events }
        }
        let appended = LockedValue(0)
        let feeder = Task {
            for index in 0..<40 {
                #expect(await queue.append(.init(event: event(index), payload: index)))
                appended.withLock { $0 += 1 }
            }
            queue.finish()
        }
        let committer = Task { () throws(EventReportError) -> [Int] in
            var handed: [Int] = []
            while let batch = try await queue.commitNext() { handed += batch }
            return handed
        }
        // The committer holds one batch in the slow store; the queue is full behind it and the
        // feeder waits for room rather than drop anything. Watched from a thread of its own: a
        // starved test pool may run this task only after the feeder has long been waiting.
        let waiting = await Eventually.wait {
            storing.withLock { $0 } == 1 && queue.count == queue.capacity && queue.waitingFeeders == 1
        }
        #expect(
            waiting, "stores \(storing.withLock { $0 }), queued \(queue.count), feeders waiting \(queue.waitingFeeders)"
        )
        #expect(appended.withLock { $0 } <= queue.capacity + queue.batchLimit)
        #expect(stored.withLock { $0 }.isEmpty)
        await gate.open()
        await feeder.value
        let handed = try await committer.value
        #expect(handed == Array(0..<40))
        #expect(stored.withLock { $0 } == (0..<40).map { event($0) })
        #expect(queue.waitingFeeders == 0)
    }
}
