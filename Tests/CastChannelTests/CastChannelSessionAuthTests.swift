import Foundation
import Testing

@testable import CastChannel

/// The session with a device-authentication challenge: sent first, as Chrome does; a once
/// session waits for the status and the answer, and no longer than the status time-out.
@Suite("The conversation with a receiver that is asked to authenticate itself")
struct CastChannelSessionAuthTests {
    typealias T = CastChannelSessionTests
    static let nonce = Array(UInt8(0)..<16)
    static let answer = DeviceAuthMessage(error: .noTLS).encoded()

    static func authAnswer(_ payload: [UInt8]) -> CastMessage {
        CastMessage(
            sourceID: "receiver-0", destinationID: "sender-0", namespace: CastNamespace.deviceAuth,
            payloadType: .binary,
            payloadBinary: payload)
    }

    static func answers(_ actions: [CastChannelSession.Action]) -> [[UInt8]?] {
        actions.compactMap { if case .deviceAuth(let answer) = $0 { answer } else { nil } }
    }

    @Test("the challenge goes first: BINARY on the deviceauth namespace, the nonce and SHA-256, nothing else")
    func challengeFirst() throws {
        var session = CastChannelSession(mode: .once, nonce: Self.nonce)
        let actions = session.start(at: T.at(0))
        guard case .send(let first)? = actions.first else {
            Issue.record("\(actions)")
            return
        }
        #expect(first.namespace == CastNamespace.deviceAuth && first.payloadType == .binary)
        #expect(first.destinationID == "receiver-0")
        let message = try DeviceAuthMessage(decoding: first.payloadBinary ?? [])
        #expect(message == DeviceAuthMessage(challenge: AuthChallenge(senderNonce: Self.nonce, hashAlgorithm: .sha256)))
        #expect(T.sent(actions) == [#"{"type":"CONNECT"}"#, #"{"type":"GET_STATUS","requestId":1}"#])
    }

    @Test("once: the status, then the answer, then the end; or the answer first")
    func bothInEitherOrder() {
        var session = CastChannelSession(mode: .once, nonce: Self.nonce)
        _ = session.start(at: T.at(0))
        let status = session.receive(T.fromReceiver(T.status), at: T.at(0.1))
        #expect(!status.contains(.finish(nil)))
        #expect(session.nextDeadline == T.at(5))
        let answered = session.receive(Self.authAnswer(Self.answer), at: T.at(0.2))
        #expect(Self.answers(answered) == [Self.answer])
        #expect(answered.last == .finish(nil))

        var other = CastChannelSession(mode: .once, nonce: Self.nonce)
        _ = other.start(at: T.at(0))
        #expect(Self.answers(other.receive(Self.authAnswer(Self.answer), at: T.at(0.1))) == [Self.answer])
        #expect(other.receive(T.fromReceiver(T.status), at: T.at(0.2)).last == .finish(nil))
    }

    @Test("a status without an answer: no answer at the time-out, and the end without an error")
    func noAnswer() {
        var session = CastChannelSession(mode: .once, timing: .init(statusTimeout: .seconds(2)), nonce: Self.nonce)
        _ = session.start(at: T.at(0))
        _ = session.receive(T.fromReceiver(T.status), at: T.at(0.1))
        #expect(session.tick(at: T.at(1.9)).isEmpty)
        let actions = session.tick(at: T.at(2))
        #expect(Self.answers(actions) == [nil])
        #expect(actions.last == .finish(nil))
    }

    @Test("neither in time: no answer, then noStatus; a second answer is not reported")
    func neither() {
        var session = CastChannelSession(mode: .once, timing: .init(statusTimeout: .seconds(2)), nonce: Self.nonce)
        _ = session.start(at: T.at(0))
        let actions = session.tick(at: T.at(2))
        #expect(Self.answers(actions) == [nil])
        guard case .finish(let error)? = actions.last else {
            Issue.record("\(actions)")
            return
        }
        #expect(error?.code == .noStatus)

        var kept = CastChannelSession(mode: .keep, nonce: Self.nonce)
        _ = kept.start(at: T.at(0))
        #expect(Self.answers(kept.receive(Self.authAnswer([1]), at: T.at(0.1))) == [[1]])
        #expect(kept.receive(Self.authAnswer([2]), at: T.at(0.2)).isEmpty)
    }

    @Test("an answer as text, not BINARY, is an empty answer (the verifier calls it malformed)")
    func textAnswer() {
        var session = CastChannelSession(mode: .once, nonce: Self.nonce)
        _ = session.start(at: T.at(0))
        let text = CastMessage.json("{}", from: "receiver-0", to: "sender-0", on: CastNamespace.deviceAuth)
        #expect(Self.answers(session.receive(text, at: T.at(0.1))) == [[]])
    }
}
