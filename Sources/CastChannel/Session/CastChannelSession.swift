/// The conversation with one receiver over an open channel, without the channel: what to send,
/// when a status has come, when to give up. Time is a parameter (`at:`), so the rules are
/// tested without a socket or a wait.
///
/// On ``start(at:)`` it sends the device-authentication challenge when given a nonce (as Chrome
/// does, first), then CONNECT to `receiver-0` and GET_STATUS. It answers the receiver's
/// PINGs; a RECEIVER_STATUS with its request's id, or a broadcast one (request id 0 or none),
/// is the status; one with another id is not. Asked for one status (``Mode/once``) it then
/// sends CLOSE and is done; kept open (``Mode/keep``) it reports every later status, PINGs the
/// receiver every ``Timing/heartbeatInterval`` and gives up after ``Timing/silenceLimit``
/// without a message.
public struct CastChannelSession: Sendable {
    /// One status, or every status until the channel is closed.
    public enum Mode: Sendable, Hashable {
        case once
        case keep
    }

    /// How long the session waits.
    public struct Timing: Sendable, Hashable {
        /// How long the first RECEIVER_STATUS may take, from the start.
        public var statusTimeout: Duration
        /// How often a kept session PINGs the receiver (Chromium's 5 s).
        public var heartbeatInterval: Duration
        /// How long a kept session waits without any message before it gives up (Chromium's
        /// 10 s: two PINGs unanswered).
        public var silenceLimit: Duration

        /// Creates a timing.
        public init(
            statusTimeout: Duration = .seconds(5), heartbeatInterval: Duration = .seconds(5),
            silenceLimit: Duration = .seconds(10)
        ) {
            self.statusTimeout = statusTimeout
            self.heartbeatInterval = heartbeatInterval
            self.silenceLimit = silenceLimit
        }
    }

    /// What the channel must do.
    public enum Action: Sendable, Hashable {
        /// Send this message.
        case send(CastMessage)
        /// The receiver's status (the first, or a change).
        case status(ReceiverStatus)
        /// The receiver's answer to the challenge (the BINARY payload as received), or nil when
        /// none came within ``Timing/statusTimeout``. Once per session, when a nonce was given.
        case deviceAuth([UInt8]?)
        /// The conversation is over: close the channel (after sending what came before).
        case finish(CastChannelError?)
    }

    public let mode: Mode
    public let timing: Timing
    /// The nonce of the device-authentication challenge; nil when the session does not ask.
    public let nonce: [UInt8]?
    private var started: ContinuousClock.Instant?
    private var lastHeard: ContinuousClock.Instant?
    private var lastPing: ContinuousClock.Instant?
    private var requestID = 0
    private var hasStatus = false
    private var hasAuthAnswer = false
    private(set) public var isFinished = false

    /// Creates a session that has sent nothing yet; with a `nonce` (Chrome sends 16 random
    /// bytes) it also asks the receiver to authenticate itself.
    public init(mode: Mode, timing: Timing = Timing(), nonce: [UInt8]? = nil) {
        self.mode = mode
        self.timing = timing
        self.nonce = nonce
        self.hasAuthAnswer = nonce == nil
    }

    /// Whether a once-session has what it came for: the status, and the answer to the challenge.
    private var isComplete: Bool { hasStatus && hasAuthAnswer }

    /// Opens the conversation: CONNECT, then GET_STATUS.
    public mutating func start(at now: ContinuousClock.Instant) -> [Action] {
        guard started == nil else { return [] }
        started = now
        lastHeard = now
        lastPing = now
        requestID += 1
        var challenge: [Action] = []
        if let nonce {
            let message = DeviceAuthMessage(challenge: AuthChallenge(senderNonce: nonce, hashAlgorithm: .sha256))
            challenge.append(
                .send(
                    CastMessage(
                        sourceID: CastNamespace.senderID, destinationID: CastNamespace.receiverID,
                        namespace: CastNamespace.deviceAuth, payloadType: .binary, payloadBinary: message.encoded())))
        }
        return challenge + [
            .send(
                .json(
                    #"{"type":"CONNECT"}"#, from: CastNamespace.senderID, to: CastNamespace.receiverID,
                    on: CastNamespace.connection)),
            .send(
                .json(
                    #"{"type":"GET_STATUS","requestId":\#(requestID)}"#, from: CastNamespace.senderID,
                    to: CastNamespace.receiverID,
                    on: CastNamespace.receiver)),
        ]
    }

    /// Takes a message from the receiver.
    public mutating func receive(_ message: CastMessage, at now: ContinuousClock.Instant) -> [Action] {
        guard started != nil, !isFinished else { return [] }
        lastHeard = now
        // Messages to another sender (an app's transport id) are not this session's.
        guard message.destinationID == CastNamespace.senderID || message.destinationID == CastNamespace.broadcastID
        else { return [] }
        switch message.namespace {
        case CastNamespace.deviceAuth:
            guard !hasAuthAnswer else { return [] }
            hasAuthAnswer = true
            let answer: Action = .deviceAuth(message.payloadType == .binary ? message.payloadBinary ?? [] : [])
            return mode == .once && isComplete ? [answer] + finish(nil) : [answer]
        case CastNamespace.heartbeat:
            guard let text = message.payloadUTF8, let parsed = try? ReceiverMessage(json: text), parsed.type == "PING"
            else { return [] }
            return [
                .send(
                    .json(
                        #"{"type":"PONG"}"#, from: CastNamespace.senderID, to: message.sourceID,
                        on: CastNamespace.heartbeat))
            ]
        case CastNamespace.connection:
            guard let text = message.payloadUTF8, let parsed = try? ReceiverMessage(json: text), parsed.type == "CLOSE"
            else { return [] }
            return finish(CastChannelError(.closed, "the receiver closed the channel"))
        case CastNamespace.receiver:
            guard message.payloadType == .string, let text = message.payloadUTF8 else {
                return finish(CastChannelError(.protocol, "a receiver message without text"))
            }
            let parsed: ReceiverMessage
            do {
                parsed = try ReceiverMessage(json: text)
            } catch {
                return finish(error)
            }
            guard parsed.type == "RECEIVER_STATUS", let status = parsed.status else { return [] }
            // Our answer, or a broadcast of a change; an answer to another request is not.
            let id = parsed.requestId ?? 0
            guard id == 0 || id == requestID else { return [] }
            hasStatus = true
            return mode == .once && isComplete ? [.status(status)] + finish(nil) : [.status(status)]
        default:
            return []
        }
    }

    /// When ``tick(at:)`` must next be called: the status time-out, the next PING, the silence
    /// limit; nil when finished.
    public var nextDeadline: ContinuousClock.Instant? {
        guard let started, let lastHeard, let lastPing, !isFinished else { return nil }
        var deadlines: [ContinuousClock.Instant] = []
        if !hasStatus || !hasAuthAnswer { deadlines.append(started + timing.statusTimeout) }
        if mode == .keep {
            deadlines.append(lastPing + timing.heartbeatInterval)
            deadlines.append(lastHeard + timing.silenceLimit)
        }
        return deadlines.min()
    }

    /// What is due at `now`: a time-out, or a PING.
    public mutating func tick(at now: ContinuousClock.Instant) -> [Action] {
        guard let started, let lastHeard, let lastPing, !isFinished else { return [] }
        var actions: [Action] = []
        if !hasAuthAnswer, now >= started + timing.statusTimeout {
            hasAuthAnswer = true
            actions.append(.deviceAuth(nil))
        }
        if !hasStatus, now >= started + timing.statusTimeout {
            return actions
                + finish(CastChannelError(.noStatus, "no RECEIVER_STATUS within \(timing.statusTimeout.secondsText) s"))
        }
        if mode == .once, isComplete { return actions + finish(nil) }
        return actions + keepAlive(at: now, lastHeard: lastHeard, lastPing: lastPing)
    }

    private mutating func keepAlive(
        at now: ContinuousClock.Instant, lastHeard: ContinuousClock.Instant, lastPing: ContinuousClock.Instant
    ) -> [Action] {
        guard mode == .keep else { return [] }
        if now >= lastHeard + timing.silenceLimit {
            return finish(
                CastChannelError(.timeout, "nothing heard for \(timing.silenceLimit.secondsText) s (heartbeat lost)"))
        }
        if now >= lastPing + timing.heartbeatInterval {
            self.lastPing = now
            return [
                .send(
                    .json(
                        #"{"type":"PING"}"#, from: CastNamespace.senderID, to: CastNamespace.receiverID,
                        on: CastNamespace.heartbeat))
            ]
        }
        return []
    }

    /// Ends the conversation from this side (the caller stops): CLOSE, then finish.
    public mutating func close() -> [Action] {
        guard started != nil, !isFinished else { return [] }
        return finish(nil)
    }

    private mutating func finish(_ error: CastChannelError?) -> [Action] {
        isFinished = true
        // A channel the receiver closed, or that broke, gets no CLOSE.
        guard error == nil || error?.code == .noStatus || error?.code == .timeout else { return [.finish(error)] }
        return [
            .send(
                .json(
                    #"{"type":"CLOSE"}"#, from: CastNamespace.senderID, to: CastNamespace.receiverID,
                    on: CastNamespace.connection)),
            .finish(error),
        ]
    }
}
