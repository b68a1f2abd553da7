import CastDiscovery

#if canImport(Glibc)
import Glibc
#endif

/// One sender's connection to a simulated receiver, on the ``ReceiverChannelServer``'s loop:
/// the TLS handshake (the receiver's side), then the receiver's answers: PONG for PING, a
/// RECEIVER_STATUS with the request's id for GET_STATUS, its identity's answer to a
/// device-authentication challenge, nothing for CONNECT and the namespaces a simulated receiver
/// does not speak, the end for CLOSE. Every method runs on the
/// loop's thread.
final class ServedChannel {
    let receiver: Int
    let connection: TCPConnection
    var token: PollLoop.Token?
    private let tls: TLSSession
    private var decoder = CastFrameDecoder()
    private var pending: [UInt8] = []
    private var secured = false
    /// When the connection came (the server ends a handshake that takes too long).
    let accepted: ContinuousClock.Instant
    /// When the sender last sent anything (the server ends a silence that lasts too long).
    private(set) var lastHeard: ContinuousClock.Instant
    private(set) var isClosed = false
    /// The most ciphertext held for a sender that does not read: past it the connection ends.
    static let pendingLimit = 256 * 1024

    init(receiver: Int, connection: TCPConnection, context: TLSContext, at now: ContinuousClock.Instant)
        throws(CastChannelError)
    {
        self.receiver = receiver
        self.connection = connection
        tls = try TLSSession(accepting: context)
        accepted = now
        lastHeard = now
    }

    /// Whether the handshake is over.
    var isSecured: Bool { secured }

    /// Reads what came and answers it; `status` gives the receiver's status object (JSON),
    /// `authenticate` its answer to a challenge (nil: none).
    func readable(status: () -> String, authenticate: ([UInt8]) -> [UInt8]?) {
        guard !isClosed else { return }
        do throws(CastChannelError) {
            for _ in 0..<16 {
                let bytes = try connection.receiveAvailable()
                guard !bytes.isEmpty else { break }
                lastHeard = .now
                tls.receive(bytes)
                if !secured {
                    secured = try tls.handshake()
                    pending += tls.takeOutgoing()
                    guard secured else { continue }
                }
                let (messages, failure) = tls.readMessages(into: &decoder)
                for message in messages {
                    try answer(message, status: status, authenticate: authenticate)
                    if isClosed { return }
                }
                if let failure { throw failure }
                pending += tls.takeOutgoing()
            }
            try flush()
        } catch {
            close()
        }
    }

    /// Sends a RECEIVER_STATUS broadcast (requestId 0) with `status`.
    func broadcast(_ status: String) {
        guard secured, !isClosed else { return }
        do throws(CastChannelError) {
            try send(
                #"{"type":"RECEIVER_STATUS","requestId":0,"status":\#(status)}"#, to: CastNamespace.broadcastID,
                on: CastNamespace.receiver)
            try flush()
        } catch {
            close()
        }
    }

    /// Sends what waits, as far as the socket takes it.
    func writable() {
        guard !isClosed else { return }
        do throws(CastChannelError) { try flush() } catch { close() }
    }

    /// Whether output waits for the socket.
    var wantsOutput: Bool { !pending.isEmpty }

    /// Ends the connection (close_notify, as far as the socket takes it).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        if secured {
            tls.shutdown()
            pending += tls.takeOutgoing()
            _ = try? connection.sendAvailable(pending[...])
        }
        pending = []
    }

    private func answer(
        _ message: CastMessage, status: () -> String, authenticate: ([UInt8]) -> [UInt8]?
    ) throws(CastChannelError) {
        if message.namespace == CastNamespace.deviceAuth, message.payloadType == .binary {
            guard let answer = authenticate(message.payloadBinary ?? []) else { return }
            pending += try tls.seal(
                CastMessage(
                    sourceID: CastNamespace.receiverID, destinationID: message.sourceID,
                    namespace: CastNamespace.deviceAuth, payloadType: .binary, payloadBinary: answer))
            return
        }
        guard let text = message.payloadUTF8, let request = try? ReceiverMessage(json: text) else { return }
        switch (message.namespace, request.type) {
        case (CastNamespace.heartbeat, "PING"):
            try send(#"{"type":"PONG"}"#, to: message.sourceID, on: CastNamespace.heartbeat)
        case (CastNamespace.receiver, "GET_STATUS"):
            let id = request.requestId ?? 0
            try send(
                #"{"type":"RECEIVER_STATUS","requestId":\#(id),"status":\#(status())}"#, to: message.sourceID,
                on: CastNamespace.receiver)
        case (CastNamespace.connection, "CLOSE"):
            close()
        default:
            break
        }
    }

    private func send(_ json: String, to destination: String, on namespace: String) throws(CastChannelError) {
        pending += try tls.seal(.json(json, from: CastNamespace.receiverID, to: destination, on: namespace))
    }

    private func flush() throws(CastChannelError) {
        if !pending.isEmpty {
            pending.removeFirst(try connection.sendAvailable(pending[...]))
        }
        if pending.count > Self.pendingLimit { throw CastChannelError(.timeout, "the sender does not read") }
    }
}
