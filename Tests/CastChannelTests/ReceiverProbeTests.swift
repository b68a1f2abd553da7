@testable import CastChannel
import CastChannelTestSupport
import Foundation
import Testing

/// The probe against a TLS receiver on loopback, one behaviour each: a status, or the reason,
/// within the time-out.
@Suite("Asking a receiver for its status, over TLS on loopback")
struct ReceiverProbeTests {
    static let status =
        #"{"applications":[{"appId":"CC1AD845","displayName":"Default Media Receiver","isIdleScreen":false}],"volume":{"level":0.25,"muted":false},"isStandBy":false}"#

    static func probe(_ behaviour: LoopbackReceiver.Behaviour, timeout: Duration = .seconds(2)) async throws
        -> ReceiverProbeResult
    {
        let receiver = try LoopbackReceiver(behaviour)
        defer { receiver.stop() }
        return await ReceiverProbe.probe(host: "127.0.0.1", port: receiver.port, timeout: timeout)
    }

    @Test("a receiver that answers: its status, the TLS it agreed, each phase timed")
    func answers() async throws {
        let result = try await Self.probe(.answer(Self.status))
        #expect(result.error == nil)
        #expect(result.isReachable)
        #expect(result.status?.runningApplication?.displayName == "Default Media Receiver")
        #expect(result.status?.volume?.level == 0.25)
        #expect(result.tls?.protocol.hasPrefix("TLSv1.") == true)
        #expect(result.connectDuration != nil && result.tlsDuration != nil && result.statusDuration != nil)
    }

    @Test("an answer to another request and 2,000 PINGs first: still the status")
    func pingFlood() async throws {
        let result = try await Self.probe(.pingFloodThenAnswer(Self.status), timeout: .seconds(5))
        #expect(result.error == nil)
        #expect(result.status?.isStandBy == false)
    }

    @Test("a status and a bad frame in one read: the status counts")
    func statusBeforeGarbage() async throws {
        let result = try await Self.probe(.answerThenGarbage(Self.status))
        #expect(result.error == nil)
        #expect(result.status?.volume?.level == 0.25)
    }

    @Test("nothing listening: refused")
    func refused() async throws {
        let receiver = try LoopbackReceiver(.silentAfterTLS)
        let port = receiver.port
        receiver.stop()
        let result = await ReceiverProbe.probe(host: "127.0.0.1", port: port, timeout: .seconds(2))
        #expect(result.error?.code == .refused)
        #expect(result.connectDuration == nil)
    }

    /// The probe's own time (not the awaiting test's, which a loaded test run delays): the
    /// time-out, plus a poll's rounding, plus the scheduling of its thread on a busy machine.
    static func withinTimeOut(_ result: ReceiverProbeResult, _ timeout: Duration) -> Bool {
        result.duration >= timeout && result.duration < timeout + .seconds(1)
    }

    @Test("TLS that never starts: tls, at the time-out")
    func stalledTLS() async throws {
        let result = try await Self.probe(.stallTLS, timeout: .milliseconds(500))
        #expect(result.error?.code == .tls)
        #expect(result.connectDuration != nil && result.tlsDuration == nil)
        #expect(Self.withinTimeOut(result, .milliseconds(500)), "took \(result.duration)")
    }

    @Test("connected, no status: noStatus, at the time-out")
    func silent() async throws {
        let result = try await Self.probe(.silentAfterTLS, timeout: .milliseconds(500))
        #expect(result.error?.code == .noStatus)
        #expect(result.tlsDuration != nil)
        #expect(Self.withinTimeOut(result, .milliseconds(500)), "took \(result.duration)")
    }

    @Test("a 2 GiB length, garbage, a payload that is not JSON: protocol; CLOSE: closed")
    func hostile() async throws {
        #expect(try await Self.probe(.rawAfterTLS([0x80, 0, 0, 0])).error?.code == .protocol)
        #expect(try await Self.probe(.rawAfterTLS([0, 0, 0, 4, 0xFF, 0xFF, 0xFF, 0xFF])).error?.code == .protocol)
        #expect(try await Self.probe(.notJSON).error?.code == .protocol)
        #expect(try await Self.probe(.closeChannel).error?.code == .closed)
    }
}
