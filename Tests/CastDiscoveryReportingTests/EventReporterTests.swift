@testable import CastDiscoveryReporting
import CastDiscovery
import Foundation
import Testing

@Suite("Event reporter: ids, escaping, and what a failed send leaves")
struct EventReporterTests {
    @Test("each event gets its own id, put first; unsafe characters are escaped; non-objects are refused")
    func record() async throws {
        let directory = try SpoolDirectory()
        let reporter = try EventReporter(configuration: .init(collector: nil, spoolDirectory: directory.path))
        let first = try await reporter.record(json: Array(#"{"event":"inserted","name":"A\u202eB"}"#.utf8))
        let second = try await reporter.record(json: Array("{ }".utf8))
        #expect(first != second && first.count == 36)
        let spool = try EventSpool(directory: directory.path, limits: SpoolLimits())
        let stored = try spool.oldest(limit: 10, through: .max)
        let texts = stored.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(texts[0] == #"{"id":"\#(first)","event":"inserted","name":"A\u202eB"}"#)
        #expect(texts[1] == #"{"id":"\#(second)"}"#)
        for text in texts { #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any]) }
        await #expect(throws: EventReportError.self) { try await reporter.record(json: Array("[1]".utf8)) }
        await #expect(throws: EventReportError.self) { try await reporter.record(json: Array("{\"a\":".utf8)) }
    }

    @Test("a collector that cannot be reached: nothing delivered, everything kept, the failure reported")
    func unreachable() async throws {
        let directory = try SpoolDirectory()
        // Port 9 (discard) on loopback: nothing listens there in the test environment.
        let collector = try EventCollector(url: "http://127.0.0.1:9/events")
        let reporter = try EventReporter(
            configuration: .init(collector: collector, spoolDirectory: directory.path, timeout: .seconds(2)))
        for index in 0..<3 { try await reporter.record(json: Array("{\"n\":\(index)}".utf8)) }
        var reports = reporter.reports.makeAsyncIterator()
        let result = await reporter.sendStored()
        #expect(result.delivered == 0 && result.failed == 3 && result.error != nil)
        #expect(await reports.next() == .sent(result))
        let status = try await reporter.status()
        #expect(status.pending == 3 && status.lastSend == result)
    }

    @Test(
        "collector URLs: http and https with a host only, never credentials in them",
        arguments: [
            ("http://127.0.0.1:8080/events", true), ("https://collector.example/x?y=1", true),
            ("HTTP://[::1]:80/", true),
            ("ftp://host/x", false), ("http://", false), ("http:///path", false), ("http://user:pw@host/", false),
            ("http://user@host/", false), ("http://host/a b", false), ("http://host/\u{1B}[2J", false),
            ("file:///etc/passwd", false),
            ("http://host:1/", true), ("http://host:65535/", true), ("http://[fe80::1%25eth0]:80/", true),
            ("http://a.b-c_d~e/", true),
            ("http://host:0/", false), ("http://host:65536/", false), ("http://host:99999/", false),
            ("http://host:-1/", false),
            ("http://host:18099x/", false), ("http://host:/", false), ("http://host:080808/", false),
            ("http://[::1/events", false),
            ("http://[::1]x/", false), ("http://[]/", false), ("http://[::g]/", false),
            ("http://[fe80::1%eth0]/", false),
            ("http://ho$t/", false), ("http://a:b:c/", false),
        ])
    func urls(url: String, accepted: Bool) {
        #expect(((try? EventCollector(url: url)) != nil) == accepted, "\(url)")
    }

    @Test(
        "credentials: empty, control characters or bytes that are not UTF-8 are refused as credentials, never shown",
        arguments: ["", "a\nb", "a:b\r", "a:\u{7}b", "a:b\u{85}", "a:" + RawPath.decode([0x73, 0xFF, 0x63])])
    func badCredentials(credentials: String) {
        do {
            _ = try EventCollector(url: "http://127.0.0.1:8080/events", credentials: credentials)
            Issue.record("accepted \(credentials.debugDescription)")
        } catch {
            guard case .invalidCredentials = error else {
                Issue.record("\(error)")
                return
            }
            #expect(!credentials.isEmpty == !error.description.contains("empty"))
        }
        #expect((try? EventCollector(url: "http://127.0.0.1:8080/events", credentials: "alice:s\u{E9}cret:x")) != nil)
    }

    @Test("credentials in the URL are named in the error without the secret")
    func redacted() {
        do {
            _ = try EventCollector(url: "http://alice:s3cret@host/events")
            Issue.record("accepted credentials in the URL")
        } catch {
            #expect(error == .credentialsInURL(url: "\"http://…@host/events\""))
            #expect(!error.description.contains("s3cret"))
        }
    }
}

@Suite("Event reporter: status reads, drops are said together, recoveries are reported")
struct EventReporterSpoolTests {
    @Test("status with tight bounds drops nothing and counts what is past them; applyLimits drops them, reported")
    func statusDropsNothing() async throws {
        let directory = try SpoolDirectory()
        do {
            let reporter = try EventReporter(configuration: .init(collector: nil, spoolDirectory: directory.path))
            for index in 0..<5 { try await reporter.record(json: Array("{\"n\":\(index)}".utf8)) }
            await reporter.finish()
        }
        let tight = try EventReporter(
            configuration: .init(
                collector: nil, spoolDirectory: directory.path, limits: SpoolLimits(maximumEvents: 1)))
        let status = try await tight.status()
        #expect(status.pending == 5 && status.beyondBounds == 4 && status.dropped == 0)
        #expect(try await tight.status().pending == 5)
        #expect(try await tight.applyLimits() == 4)
        await tight.finish()
        var reports: [EventReport] = []
        for await report in tight.reports { reports.append(report) }
        #expect(reports == [.dropped(4)])
    }

    @Test("drops past the bound are reported together, a report a second at most, every one counted")
    func dropsTogether() async throws {
        let directory = try SpoolDirectory()
        let reporter = try EventReporter(
            configuration: .init(
                collector: nil, spoolDirectory: directory.path, limits: SpoolLimits(maximumEvents: 1)))
        let started = ContinuousClock.now
        for index in 0..<40 { try await reporter.record(json: Array("{\"n\":\(index)}".utf8)) }
        await reporter.finish()
        let elapsed = ContinuousClock.now - started
        var drops: [Int] = []
        for await report in reporter.reports { if case .dropped(let count) = report { drops.append(count) } }
        #expect(drops.reduce(0, +) == 39)
        #expect(drops.count <= Int(elapsed.components.seconds) + 2, "\(drops) in \(elapsed)")
    }

    @Test("a spool moved away is reported as a recovery, with the events carried")
    func recoveryReported() async throws {
        let directory = try SpoolDirectory()
        let reporter = try EventReporter(configuration: .init(collector: nil, spoolDirectory: directory.path))
        for index in 0..<3 { try await reporter.record(json: Array("{\"n\":\(index)}".utf8)) }
        try FileManager.default.moveItem(atPath: directory.database, toPath: directory.path + "/moved.sqlite")
        try await reporter.record(json: Array("{}".utf8))
        await reporter.finish()
        var recoveries: [SpoolRecovery] = []
        for await report in reporter.reports {
            if case .recovered(let recovery) = report { recoveries.append(recovery) }
        }
        #expect(recoveries.map(\.carried) == [3])
        #expect(try await reporter.status().pending == 4)
    }
}
