import CastChannel
import Foundation
import Testing

@Suite("The conversation with a receiver, on a clock of the test's")
struct CastChannelSessionTests {
    static let t0 = ContinuousClock.now

    static func at(_ seconds: Double) -> ContinuousClock.Instant { t0 + .milliseconds(Int(seconds * 1000)) }

    static func fromReceiver(
        _ json: String, on namespace: String = CastNamespace.receiver, to destination: String = "sender-0"
    ) -> CastMessage {
        .json(json, from: "receiver-0", to: destination, on: namespace)
    }

    static func sent(_ actions: [CastChannelSession.Action]) -> [String] {
        actions.compactMap { if case .send(let message) = $0 { message.payloadUTF8 } else { nil } }
    }

    static let status = #"{"type":"RECEIVER_STATUS","requestId":1,"status":{"volume":{"level":0.5,"muted":false}}}"#

    @Test("once: CONNECT and GET_STATUS, the answer is the status, then CLOSE")
    func once() {
        var session = CastChannelSession(mode: .once)
        #expect(
            Self.sent(session.start(at: Self.at(0))) == [
                #"{"type":"CONNECT"}"#, #"{"type":"GET_STATUS","requestId":1}"#,
            ])
        let actions = session.receive(Self.fromReceiver(Self.status), at: Self.at(0.1))
        #expect(actions.first == .status(ReceiverStatus(volume: ReceiverVolume(level: 0.5, muted: false))))
        #expect(Self.sent(actions) == [#"{"type":"CLOSE"}"#])
        #expect(actions.last == .finish(nil))
        #expect(session.isFinished && session.nextDeadline == nil)
    }

    @Test("an answer to another request is not the status; a broadcast is")
    func requestIDs() {
        var session = CastChannelSession(mode: .once)
        _ = session.start(at: Self.at(0))
        #expect(
            session.receive(
                Self.fromReceiver(Self.status.replacingOccurrences(of: "\"requestId\":1", with: "\"requestId\":9")),
                at: Self.at(0.1)
            ).isEmpty)
        let broadcast = Self.fromReceiver(
            Self.status.replacingOccurrences(of: "\"requestId\":1", with: "\"requestId\":0"), to: "*")
        #expect(session.receive(broadcast, at: Self.at(0.2)).contains(.finish(nil)))
    }

    @Test("the receiver's PINGs are answered; no status in time is noStatus, at the time-out and not before")
    func noStatus() {
        var session = CastChannelSession(mode: .once, timing: .init(statusTimeout: .seconds(2)))
        _ = session.start(at: Self.at(0))
        #expect(
            Self.sent(
                session.receive(Self.fromReceiver(#"{"type":"PING"}"#, on: CastNamespace.heartbeat), at: Self.at(1)))
                == [#"{"type":"PONG"}"#])
        #expect(session.nextDeadline == Self.at(2))
        #expect(session.tick(at: Self.at(1.999)).isEmpty)
        let actions = session.tick(at: Self.at(2))
        guard case .finish(let error)? = actions.last else { Issue.record("\(actions)"); return }
        #expect(error?.code == .noStatus)
    }

    @Test("kept: every status change reported, a PING every interval, given up after the silence limit")
    func kept() {
        var session = CastChannelSession(
            mode: .keep,
            timing: .init(statusTimeout: .seconds(5), heartbeatInterval: .seconds(5), silenceLimit: .seconds(10)))
        _ = session.start(at: Self.at(0))
        #expect(session.receive(Self.fromReceiver(Self.status), at: Self.at(0.1)).count == 1)
        #expect(!session.isFinished)
        #expect(session.nextDeadline == Self.at(5))
        #expect(Self.sent(session.tick(at: Self.at(5))) == [#"{"type":"PING"}"#])
        _ = session.receive(Self.fromReceiver(#"{"type":"PONG"}"#, on: CastNamespace.heartbeat), at: Self.at(5.1))
        let change = Self.fromReceiver(
            #"{"type":"RECEIVER_STATUS","requestId":0,"status":{"isStandBy":true}}"#, to: "*")
        #expect(session.receive(change, at: Self.at(6)) == [.status(ReceiverStatus(isStandBy: true))])
        #expect(Self.sent(session.tick(at: Self.at(10))) == [#"{"type":"PING"}"#])
        #expect(Self.sent(session.tick(at: Self.at(15))) == [#"{"type":"PING"}"#])
        let actions = session.tick(at: Self.at(16))
        guard case .finish(let error)? = actions.last else { Issue.record("\(actions)"); return }
        #expect(error?.code == .timeout)
    }

    @Test(
        "the receiver's CLOSE is closed; a payload that is not JSON is a protocol error; other senders' messages are not ours"
    )
    func endings() {
        var closed = CastChannelSession(mode: .keep)
        _ = closed.start(at: Self.at(0))
        #expect(
            closed.receive(Self.fromReceiver(#"{"type":"CLOSE"}"#, on: CastNamespace.connection), at: Self.at(1))
                == [.finish(CastChannelError(.closed, "the receiver closed the channel"))])
        var garbage = CastChannelSession(mode: .once)
        _ = garbage.start(at: Self.at(0))
        #expect(garbage.receive(Self.fromReceiver(#"{"type":"PING"}"#, to: "another-sender"), at: Self.at(0.5)).isEmpty)
        let actions = garbage.receive(Self.fromReceiver("not json"), at: Self.at(1))
        guard case .finish(let error)? = actions.last else { Issue.record("\(actions)"); return }
        #expect(error?.code == .protocol)
    }

    @Test("a PING flood is answered one PONG each and never ends the wait for the status")
    func pingFlood() {
        var session = CastChannelSession(mode: .once, timing: .init(statusTimeout: .seconds(1)))
        _ = session.start(at: Self.at(0))
        let ping = Self.fromReceiver(#"{"type":"PING"}"#, on: CastNamespace.heartbeat)
        let answers = (0..<10_000).map { index in Self.sent(session.receive(ping, at: Self.at(Double(index) / 20_000)))
        }
        #expect(answers.allSatisfy { $0 == [#"{"type":"PONG"}"#] })
        #expect(
            session.tick(at: Self.at(1)).last.map {
                if case .finish(let e) = $0 { e?.code == .noStatus } else { false }
            } == true)
    }
}
