import CastDiscovery
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Records events durably and delivers them, in batches, to an HTTP collector: store and
/// forward, so a history of a fleet of Cast devices survives the collector or the network
/// being down.
///
/// - ``record(json:)`` gives the event a unique `id` and stores it in the spool (SQLite, WAL,
///   synchronous commits) before it returns; the spool's bounds (``SpoolLimits``) drop the
///   oldest undelivered events, counted and reported (at most one report a second, with the
///   drops since the last), never silently.
/// - A spool file moved away, removed, replaced or damaged while in use is found and recovered
///   from: a fresh spool at the configured path takes the undelivered events the old file still
///   gave, and the recovery is reported (``SpoolRecovery``).
/// - ``sendStored()`` POSTs everything stored now as `{"events": [...]}` (`application/json`),
///   in batches; a 2xx answer removes a batch, anything else keeps it. A 413 (too large) halves
///   the batch, down to one event; an event the collector refuses even alone is set aside in
///   the spool (``SpoolStatus/refused``) so that it never blocks the others.
/// - ``startSending()`` sends by itself as events come, retrying failures on a
///   `RetrySchedule` (exponential backoff with jitter, capped).
///
/// Delivery is at least once: a batch whose answer is lost is sent again, so a collector drops
/// duplicates by `id`. Processes that share a spool send one at a time (a lock beside the
/// spool), so they never send the same events. Each send's result comes to the ``delegate``
/// and as ``reports``.
public actor EventReporter {
    /// What the reporter needs.
    public struct Configuration: Sendable {
        /// Where batches go; nil for a reporter that only records (and reports status).
        public var collector: EventCollector?
        /// The spool's directory, created (mode 0700) when missing.
        public var spoolDirectory: String
        public var limits: SpoolLimits
        public var retry: RetrySchedule
        /// The most events in one POST (default 100, at most ``maximumBatchSize``); a collector
        /// that answers 413 gets smaller batches.
        public var batchSize: Int
        /// The longest one POST may take (default 10 s).
        public var timeout: Duration
        /// The HTTP User-Agent.
        public var userAgent: String

        /// Creates a configuration.
        public init(
            collector: EventCollector?, spoolDirectory: String, limits: SpoolLimits = SpoolLimits(),
            retry: RetrySchedule = RetrySchedule(), batchSize: Int = 100, timeout: Duration = .seconds(10),
            userAgent: String = "CastDiscoveryReporting"
        ) {
            self.collector = collector
            self.spoolDirectory = spoolDirectory
            self.limits = limits
            self.retry = retry
            self.batchSize = min(EventReporter.maximumBatchSize, max(1, batchSize))
            self.timeout = timeout
            self.userAgent = userAgent
        }
    }

    /// The largest event accepted, in bytes of JSON.
    public static let maximumEventSize = 256 * 1024
    /// The largest batch size a configuration takes.
    public static let maximumBatchSize = 1000

    /// Each send's result and each drop, as they happen.
    public nonisolated let reports: AsyncStream<EventReport>
    /// Told of each send's result and each drop.
    public private(set) weak var delegate: (any EventReporterDelegate)?

    private let configuration: Configuration
    /// What the reporter's waits are kept with: retries, gathering a burst, the drop reports'
    /// window, a flush's time limit.
    private let clock: any DiscoveryClock
    /// What the retries' jitter is drawn from.
    private var jitter: JitterGenerator
    private let spool: EventSpool
    private let client: CollectorClient?
    private let reportContinuation: AsyncStream<EventReport>.Continuation
    /// Blocking HTTP calls run here, off the concurrency pool.
    private let network = DispatchQueue(label: "CastDiscoveryReporting.network")
    /// The reporter runs here, so the spool's syncs to disk block no thread of the pool.
    private let executor = SpoolExecutor(label: "CastDiscoveryReporting.spool")
    private var sending = false
    private var sendWaiters: [CheckedContinuation<Void, Never>] = []
    private var sender: Task<Void, Never>?
    /// The send pass ``startSending()`` has under way, if any.
    private var currentPass: Task<SendResult, Never>?
    /// One sender at a time on the spool, across processes; nil without a collector.
    private let sendLock: SpoolSendLock?
    /// The most events in the next POST: the configured size, halved after each 413.
    private var batchLimit: Int
    /// The largest full batch the collector took: what the batch returns to after an event
    /// that was refused alone was set aside (0 before the first).
    private var largestDelivered = 0
    private var news = false
    private var newsWaiter: CheckedContinuation<Void, Never>?
    /// Drops not reported yet: the first is reported at once, later ones a second after the
    /// last report, together.
    private var unreportedDrops = 0
    private var dropReportDue: Task<Void, Never>?
    /// Whether ``finish()`` ran: ``reports`` has ended.
    private var finished = false

    /// Opens the spool (setting a damaged one aside) and prepares the collector; the reporter
    /// waits (retries, gathering events, reporting drops, a flush's time limit) on `clock`, a
    /// `ManualClock` in tests, and draws its retries' jitter from `jitter` (a fixed seed in a
    /// test).
    ///
    /// - Throws: ``EventReportError`` when the spool cannot be used.
    public init(
        configuration: Configuration, clock: any DiscoveryClock = ContinuousClock(),
        jitter: JitterGenerator = .seededFromSystem()
    ) throws(EventReportError) {
        self.configuration = configuration
        self.clock = clock
        self.jitter = jitter
        spool = try EventSpool(directory: configuration.spoolDirectory, limits: configuration.limits)
        client = configuration.collector.map {
            CollectorClient(collector: $0, timeout: configuration.timeout, userAgent: configuration.userAgent)
        }
        sendLock = configuration.collector == nil ? nil : try SpoolSendLock(directory: configuration.spoolDirectory)
        batchLimit = configuration.batchSize
        (reports, reportContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1000))
    }

    deinit {
        reportContinuation.finish()
    }

    /// The reporter's own serial executor: a thread of its own rather than the shared pool's.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Sets the delegate (held weakly).
    public func setDelegate(_ delegate: (any EventReporterDelegate)?) {
        self.delegate = delegate
    }

    /// Stores an event given as the bytes of a JSON object, with a new unique `id` put first;
    /// returns the id. Unsafe characters in strings are escaped.
    ///
    /// - Throws: ``EventReportError`` when the bytes are not one JSON object of at most
    ///   ``maximumEventSize`` bytes, or the spool cannot take it (a full disk, say).
    @discardableResult
    public func record(json object: [UInt8]) throws(EventReportError) -> String {
        try checkSize(object)
        // Bytes from outside: checked before they are stored.
        guard object.first == UInt8(ascii: "{"), (try? JSONSyntax.check(object)) != nil else {
            throw .spoolUnusable(path: configuration.spoolDirectory, reason: "an event that is not a JSON object")
        }
        return try store([JSONText.escapingUnsafeScalars(object)])[0]
    }

    /// Stores an encodable event (encoded with sorted keys, dates as ISO 8601); returns its id.
    @discardableResult
    public func record(_ event: some Encodable & Sendable) throws(EventReportError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        guard let data = try? encoder.encode(event) else {
            throw .spoolUnusable(path: configuration.spoolDirectory, reason: "the event cannot be encoded as JSON")
        }
        // Encoded here, so not parsed again: only its shape is checked (a value that does not
        // encode as a keyed container is not an object).
        let object = Array(data)
        guard object.first == UInt8(ascii: "{") else {
            throw .spoolUnusable(path: configuration.spoolDirectory, reason: "an event that is not a JSON object")
        }
        try checkSize(object)
        return try store([JSONText.escapingUnsafeScalars(object)])[0]
    }

    /// Stores events this process encoded itself (`JSONEncoder`'s JSON objects, their unsafe
    /// characters already escaped, as the CLI writes its JSON lines): they are not parsed
    /// again. All of them in one transaction (one sync to disk), in order, each with a new `id`
    /// put first; returns the ids. Either every event is stored or, when this throws, none.
    ///
    /// - Throws: ``EventReportError`` when an event is larger than ``maximumEventSize`` or the
    ///   spool cannot take them.
    @discardableResult
    package func record(encoded objects: [[UInt8]]) throws(EventReportError) -> [String] {
        for object in objects { try checkSize(object) }
        return try store(objects)
    }

    /// The transactions the spool's connection committed: how many syncs to disk storing took.
    var spoolCommits: Int { spool.commits }

    /// Lets the spool grow by at most `pages` more pages, then fail as on a full disk. For tests.
    func limitSpoolGrowth(toPages pages: Int) throws(EventReportError) {
        try spool.limitGrowth(toPages: pages)
    }

    private func checkSize(_ object: [UInt8]) throws(EventReportError) {
        guard object.count <= Self.maximumEventSize else {
            throw .spoolUnusable(
                path: configuration.spoolDirectory,
                reason: "an event of \(object.count) bytes, more than \(Self.maximumEventSize)")
        }
    }

    /// Stores JSON objects, each with a new `id` put first, in one transaction.
    private func store(_ objects: [[UInt8]]) throws(EventReportError) -> [String] {
        guard !objects.isEmpty else { return [] }
        var ids: [String] = []
        var events: [(id: String, body: [UInt8])] = []
        ids.reserveCapacity(objects.count)
        events.reserveCapacity(objects.count)
        for object in objects {
            let id = UUID().uuidString.lowercased()
            ids.append(id)
            events.append((id, Self.body(object, id: id)))
        }
        defer { announceRecoveries() }
        let dropped = try spool.record(events, at: Self.now())
        noteDropped(dropped)
        signalNews()
        return ids
    }

    /// `object` with `"id": id` put first.
    private static func body(_ object: [UInt8], id: String) -> [UInt8] {
        var body = Array("{\"id\":\"\(id)\"".utf8)
        body.reserveCapacity(body.count + object.count + 1)
        let inner = object.dropFirst().drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if inner.first != UInt8(ascii: "}") { body.append(UInt8(ascii: ",")) }
        body += inner
        return body
    }

    /// The spool's pending events, drops and last send. Drops nothing: the events past the
    /// bounds are counted in ``SpoolStatus/beyondBounds``.
    public func status() throws(EventReportError) -> SpoolStatus {
        defer { announceRecoveries() }
        return try spool.status(now: Self.now())
    }

    /// Drops the events past the spool's bounds now (recording applies them too); returns how
    /// many, reported like every drop.
    @discardableResult
    public func applyLimits() throws(EventReportError) -> Int {
        defer { announceRecoveries() }
        let dropped = try spool.expire(now: Self.now())
        noteDropped(dropped)
        return dropped
    }

    /// Sends everything stored now, in batches, stopping at the first batch that fails; waits
    /// for a send already under way first, in this process or (up to the POST time limit and
    /// 5 s more) in another one sending from the same spool. Reports the result (delegate and
    /// ``reports``).
    public func sendStored() async -> SendResult {
        await acquireSend()
        defer { releaseSend() }
        let result = await sendPass()
        try? spool.saveLastSend(result)
        announceRecoveries()
        announce(.sent(result))
        return result
    }

    /// Starts sending by itself: soon after each event is recorded, and after a failure again
    /// on the retry schedule. Events already stored go first.
    public func startSending() {
        guard sender == nil, client != nil else { return }
        news = ((try? spool.newestSequence()) ?? 0) > 0
        sender = Task { await self.sendLoop() }
    }

    /// Stops sending by itself (a send under way ends as it would); what is stored stays stored.
    public func stopSending() {
        sender?.cancel()
        sender = nil
        newsWaiter?.resume()
        newsWaiter = nil
    }

    /// Stops sending at once, checks the spool file fully (recovering from what it finds) and
    /// writes its log into it, reports the drops not reported yet, and ends ``reports``: for
    /// the end of a program (nothing is lost without it; the log is as durable). A POST under
    /// way is not waited for: its events stay stored and are sent again.
    public func finish() {
        guard !finished else { return }
        finished = true
        stopSending()
        currentPass?.cancel()
        currentPass = nil
        try? spool.checkpoint()
        announceRecoveries()
        dropReportDue?.cancel()
        dropReportDue = nil
        if unreportedDrops > 0 { announce(.dropped(unreportedDrops)) }
        unreportedDrops = 0
        reportContinuation.finish()
    }

    /// Sends what is stored, after the send under way, for at most `limit` on the reporter's
    /// clock (one pass, as ``sendStored()``: it stops at the first batch that fails), then
    /// finishes as ``finish()``: for a program whose events have ended, so that the send due is
    /// not left behind. Cancelling the caller ends the send at once, as the time limit does. Returns the
    /// send's result; nil without a collector.
    @discardableResult
    public func finish(flushingFor limit: Duration) async -> SendResult? {
        stopSending()
        var result: SendResult?
        if client != nil {
            let flush = Task { await self.sendStored() }
            let underWay = currentPass
            let clock = clock
            let timer = Task {
                try? await clock.sleep(for: limit)
                flush.cancel()
                underWay?.cancel()
            }
            result = await withTaskCancellationHandler {
                await flush.value
            } onCancel: {
                flush.cancel()
                underWay?.cancel()
            }
            timer.cancel()
        }
        finish()
        return result
    }

    // MARK: - Sending

    private func sendPass() async -> SendResult {
        guard let client, let sendLock else {
            let pending = (try? spool.status(now: Self.now()).pending) ?? 0
            return SendResult(delivered: 0, failed: pending, time: Self.now(), error: "no collector")
        }
        var delivered = 0
        var refused = 0
        var error: String?
        do throws(EventReportError) {
            guard try await lockForSending(sendLock) else {
                let waiting = try spool.count(through: spool.newestSequence())
                let reason =
                    Task.isCancelled
                    ? "the send was stopped"
                    : "another process is sending from this spool: it kept the send lock for more than \(Int(lockWait.seconds)) s"
                return SendResult(delivered: 0, failed: waiting, time: Self.now(), error: reason)
            }
            defer { sendLock.unlock() }
            let through = try spool.newestSequence()
            while true {
                if Task.isCancelled {
                    error = "the send was stopped"
                    break
                }
                let batch = try spool.oldest(limit: batchLimit, through: through)
                guard !batch.isEmpty else { break }
                switch await post(Self.batchBody(batch), with: client) {
                case .delivered:
                    try spool.remove(ids: batch.map(\.id))
                    delivered += batch.count
                    if batch.count == batchLimit { largestDelivered = max(largestDelivered, batch.count) }
                    continue
                case .refused(413) where batch.count > 1:
                    // Too large: the same events again in smaller batches.
                    batchLimit = max(1, batch.count / 2)
                    continue
                case .refused(413):
                    // Refused even alone: set aside, so that it never blocks the others.
                    noteDropped(try spool.setAsideRefused(id: batch[0].id))
                    refused += 1
                    batchLimit = largestDelivered > 0 ? largestDelivered : configuration.batchSize
                    continue
                case .refused(let status):
                    error = "the collector answered HTTP \(status)"
                case .failed(let message):
                    error = message
                }
                break
            }
            let failed = try spool.count(through: through)
            return SendResult(delivered: delivered, failed: failed, time: Self.now(), error: error, refused: refused)
        } catch let failure {
            return SendResult(
                delivered: delivered, failed: 0, time: Self.now(), error: failure.description, refused: refused)
        }
    }

    /// How long a send waits for another process's send from the same spool: its batch may
    /// take the whole POST time limit.
    private var lockWait: Duration {
        configuration.timeout + .seconds(5)
    }

    /// Takes the spool's send lock, waiting at most ``lockWait`` while another process holds
    /// it; false when it could not be taken in time or the send was cancelled.
    ///
    /// Polled on the continuous clock, not the reporter's: this waits for another process,
    /// which keeps real time (its POST's time limit), and a lock file gives no signal to wait
    /// on; a clock that stood still would only make the poll spin until the real deadline.
    private func lockForSending(_ lock: SpoolSendLock) async throws(EventReportError) -> Bool {
        let deadline = ContinuousClock.now + lockWait
        while try !lock.tryLock() {
            guard !Task.isCancelled, ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// POSTs on the network queue; a cancelled send stops waiting for the answer (the batch
    /// stays stored, and is sent again).
    private func post(_ body: [UInt8], with client: CollectorClient) async -> CollectorClient.Outcome {
        let answer = PendingAnswer<CollectorClient.Outcome>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                answer.wait(with: continuation)
                guard !Task.isCancelled else { return }
                network.async { answer.give(client.post(body)) }
            }
        } onCancel: {
            answer.give(.failed("the send was stopped before the collector answered"))
        }
    }

    private static func batchBody(_ batch: [EventSpool.Event]) -> [UInt8] {
        var body = Array("{\"events\":[".utf8)
        for (index, event) in batch.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body += event.body
        }
        body += Array("]}".utf8)
        return body
    }

    /// How long sending by itself waits after news of an event, for the rest of its burst.
    static let gathering: Duration = .milliseconds(100)

    private func sendLoop() async {
        var failures = 0
        while !Task.isCancelled {
            if failures == 0 {
                await waitForNews()
                // Events often come in bursts (a scan): gather them into one batch.
                try? await clock.sleep(for: Self.gathering)
            } else {
                try? await clock.sleep(for: configuration.retry.delay(afterFailures: failures, jitter: &jitter))
            }
            if Task.isCancelled { break }
            // Its own task: stopping the loop lets a send under way end as it would.
            let pass = Task { await self.sendStored() }
            currentPass = pass
            let result = await pass.value
            currentPass = nil
            failures = result.failed > 0 || result.error != nil ? failures + 1 : 0
        }
    }

    private func waitForNews() async {
        if news {
            news = false
            return
        }
        await withCheckedContinuation { newsWaiter = $0 }
        news = false
    }

    private func signalNews() {
        news = true
        newsWaiter?.resume()
        newsWaiter = nil
    }

    private func acquireSend() async {
        if sending {
            await withCheckedContinuation { sendWaiters.append($0) }
        } else {
            sending = true
        }
    }

    private func releaseSend() {
        if sendWaiters.isEmpty {
            sending = false
        } else {
            sendWaiters.removeFirst().resume()
        }
    }

    private func announce(_ report: EventReport) {
        reportContinuation.yield(report)
        switch report {
        case .sent(let result): delegate?.eventReporter(self, didSend: result)
        case .dropped(let count): delegate?.eventReporter(self, didDrop: count)
        case .recovered(let recovery): delegate?.eventReporter(self, didRecover: recovery)
        }
    }

    private func announceRecoveries() {
        for recovery in spool.takeRecoveries() { announce(.recovered(recovery)) }
    }

    /// Counts drops, reported at once when none was reported in the last second, else at its
    /// end (or at ``finish()``), together.
    private func noteDropped(_ count: Int) {
        guard count > 0 else { return }
        unreportedDrops += count
        if dropReportDue == nil { reportDrops() }
    }

    private func reportDrops() {
        guard unreportedDrops > 0 else { return }
        announce(.dropped(unreportedDrops))
        unreportedDrops = 0
        let clock = clock
        dropReportDue = Task {
            try? await clock.sleep(for: .seconds(1))
            self.dropReportWindowEnded()
        }
    }

    private func dropReportWindowEnded() {
        guard dropReportDue != nil, !Task.isCancelled else { return }
        dropReportDue = nil
        reportDrops()
    }

    private static func now() -> Double {
        Date().timeIntervalSince1970
    }
}
