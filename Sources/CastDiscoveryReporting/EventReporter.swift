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
///   oldest undelivered events, counted and reported, never silently.
/// - ``sendStored()`` POSTs everything stored now as `{"events": [...]}` (`application/json`),
///   in batches; a 2xx answer removes a batch, anything else keeps it.
/// - ``startSending()`` sends by itself as events come, retrying failures on a
///   ``RetrySchedule`` (exponential backoff with jitter, capped).
///
/// Delivery is at least once: a batch whose answer is lost is sent again, so a collector drops
/// duplicates by `id`. Each send's result comes to the ``delegate`` and as ``reports``.
public actor EventReporter {
    /// What the reporter needs.
    public struct Configuration: Sendable {
        /// Where batches go; nil for a reporter that only records (and reports status).
        public var collector: EventCollector?
        /// The spool's directory, created (mode 0700) when missing.
        public var spoolDirectory: String
        public var limits: SpoolLimits
        public var retry: RetrySchedule
        /// The most events in one POST (default 100).
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
            self.batchSize = min(10_000, max(1, batchSize))
            self.timeout = timeout
            self.userAgent = userAgent
        }
    }

    /// The largest event accepted, in bytes of JSON.
    public static let maximumEventSize = 256 * 1024

    /// Each send's result and each drop, as they happen.
    public nonisolated let reports: AsyncStream<EventReport>
    /// Told of each send's result and each drop.
    public private(set) weak var delegate: (any EventReporterDelegate)?

    private let configuration: Configuration
    private let spool: EventSpool
    private let client: CollectorClient?
    private let reportContinuation: AsyncStream<EventReport>.Continuation
    /// Blocking HTTP calls run here, off the concurrency pool.
    private let network = DispatchQueue(label: "CastDiscoveryReporting.network")
    private var sending = false
    private var sendWaiters: [CheckedContinuation<Void, Never>] = []
    private var sender: Task<Void, Never>?
    private var news = false
    private var newsWaiter: CheckedContinuation<Void, Never>?

    /// Opens the spool (setting a damaged one aside) and prepares the collector.
    ///
    /// - Throws: ``EventReportError`` when the spool cannot be used.
    public init(configuration: Configuration) throws(EventReportError) {
        self.configuration = configuration
        spool = try EventSpool(directory: configuration.spoolDirectory, limits: configuration.limits)
        client = configuration.collector.map {
            CollectorClient(collector: $0, timeout: configuration.timeout, userAgent: configuration.userAgent)
        }
        (reports, reportContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1000))
    }

    deinit {
        reportContinuation.finish()
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
        guard object.count <= Self.maximumEventSize else {
            throw .spoolUnusable(path: configuration.spoolDirectory, reason: "an event of \(object.count) bytes, more than \(Self.maximumEventSize)")
        }
        guard object.first == UInt8(ascii: "{"), (try? JSONSyntax.check(object)) != nil else {
            throw .spoolUnusable(path: configuration.spoolDirectory, reason: "an event that is not a JSON object")
        }
        let id = UUID().uuidString.lowercased()
        var body = Array("{\"id\":\"\(id)\"".utf8)
        let inner = object.dropFirst().drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if inner.first != UInt8(ascii: "}") { body.append(UInt8(ascii: ",")) }
        body += inner
        let dropped = try spool.record(id: id, body: JSONText.escapingUnsafeScalars(body), at: Self.now())
        if dropped > 0 { announce(.dropped(dropped)) }
        signalNews()
        return id
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
        return try record(json: Array(data))
    }

    /// The spool's pending events, drops and last send.
    public func status() throws(EventReportError) -> SpoolStatus {
        try spool.expire(now: Self.now())
        return try spool.status(now: Self.now())
    }

    /// Sends everything stored now, in batches, stopping at the first batch that fails; waits
    /// for a send already under way first. Reports the result (delegate and ``reports``).
    public func sendStored() async -> SendResult {
        await acquireSend()
        defer { releaseSend() }
        let result = await sendPass()
        try? spool.saveLastSend(result)
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

    /// Stops sending by itself; what is stored stays stored.
    public func stopSending() {
        sender?.cancel()
        sender = nil
        newsWaiter?.resume()
        newsWaiter = nil
    }

    /// Stops sending by itself and writes the spool's log into its file: for the end of a
    /// program (nothing is lost without it; the log is as durable).
    public func finish() {
        stopSending()
        try? spool.checkpoint()
    }

    // MARK: - Sending

    private func sendPass() async -> SendResult {
        guard let client else {
            let pending = (try? spool.status(now: Self.now()).pending) ?? 0
            return SendResult(delivered: 0, failed: pending, time: Self.now(), error: "no collector")
        }
        var delivered = 0
        var error: String?
        do throws(EventReportError) {
            let through = try spool.newestSequence()
            while true {
                let batch = try spool.oldest(limit: configuration.batchSize, through: through)
                guard !batch.isEmpty else { break }
                switch await post(Self.batchBody(batch), with: client) {
                case .delivered:
                    try spool.remove(sequences: batch.map(\.sequence))
                    delivered += batch.count
                    continue
                case .refused(let status):
                    error = "the collector answered HTTP \(status)"
                case .failed(let message):
                    error = message
                }
                break
            }
            let failed = try spool.count(through: through)
            return SendResult(delivered: delivered, failed: failed, time: Self.now(), error: error)
        } catch let failure {
            return SendResult(delivered: delivered, failed: 0, time: Self.now(), error: failure.description)
        }
    }

    private func post(_ body: [UInt8], with client: CollectorClient) async -> CollectorClient.Outcome {
        await withCheckedContinuation { continuation in
            network.async { continuation.resume(returning: client.post(body)) }
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

    private func sendLoop() async {
        var failures = 0
        while !Task.isCancelled {
            if failures == 0 {
                await waitForNews()
                // Events often come in bursts (a scan): gather them into one batch.
                try? await Task.sleep(for: .milliseconds(100))
            } else {
                try? await Task.sleep(for: configuration.retry.delay(afterFailures: failures))
            }
            if Task.isCancelled { break }
            let result = await sendStored()
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
        }
    }

    private static func now() -> Double {
        Date().timeIntervalSince1970
    }
}
