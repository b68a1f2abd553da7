import CastDiscovery
import Synchronization

/// Asks receivers for their status over the Cast channel, directly (no discovery): TCP, TLS,
/// CONNECT and GET_STATUS, within one time-out for all three phases.
public enum ReceiverProbe {
    /// The port of a receiver's Cast channel when none is given.
    public static let defaultPort: UInt16 = 8009

    /// Asks `host` on `port` for its status, and (unless `authenticate` is false) to
    /// authenticate itself; never throws: what went wrong is the result's
    /// ``ReceiverProbeResult/error``. Runs on a thread of its own; cancelling the task ends it
    /// within 0.2 s.
    public static func probe(
        host: String, port: UInt16 = defaultPort, timeout: Duration, authenticate: Bool = true
    ) async -> ReceiverProbeResult {
        let box = CancellationFlag()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ReceiverProbeResult, Never>) in
                do {
                    try LoopThread.start {
                        continuation.resume(
                            returning: run(
                                host: host, port: port, timeout: timeout, authenticate: authenticate,
                                cancelled: { box.isSet }))
                    }
                } catch {
                    var result = ReceiverProbeResult(host: host, port: port)
                    result.error = CastChannelError(.refused, "\(error)")
                    continuation.resume(returning: result)
                }
            }
        } onCancel: {
            box.set()
        }
    }

    /// The probe, blocking the calling thread.
    static func run(
        host: String, port: UInt16, timeout: Duration, authenticate: Bool = true, cancelled: @escaping () -> Bool
    ) -> ReceiverProbeResult {
        let start = ContinuousClock.now
        var result = attempt(
            host: host, port: port, start: start, timeout: timeout, authenticate: authenticate, cancelled: cancelled)
        result.duration = ContinuousClock.now - start
        return result
    }

    private static func attempt(
        host: String, port: UInt16, start: ContinuousClock.Instant, timeout: Duration, authenticate: Bool,
        cancelled: @escaping () -> Bool
    ) -> ReceiverProbeResult {
        var result = ReceiverProbeResult(host: host, port: port)
        let deadline = start + timeout
        do throws(CastChannelError) {
            let connection = try TCPConnection.connect(host: host, port: port, deadline: deadline, cancelled: cancelled)
            let connected = ContinuousClock.now
            result.connectDuration = connected - start
            var channel = try CastChannelConnection(
                tls: try TLSSession(serverName: host), over: connection, deadline: deadline, cancelled: cancelled)
            let secured = ContinuousClock.now
            result.tlsDuration = secured - connected
            result.tls = channel.negotiated
            let nonce = authenticate ? DeviceAuthEvidence.makeNonce() : nil
            var session = CastChannelSession(
                mode: .once, timing: .init(statusTimeout: max(.zero, deadline - secured)), nonce: nonce)
            var actions = session.start(at: secured)
            while true {
                for action in actions {
                    switch action {
                    case .send(let message):
                        try channel.send(message)
                    case .status(let status):
                        result.status = status
                        result.statusDuration = ContinuousClock.now - secured
                    case .deviceAuth(let answer):
                        result.deviceAuth = DeviceAuthEvidence(
                            response: answer, tlsCertificate: channel.peerCertificate ?? [], nonce: nonce)
                    case .finish(let error):
                        if let error { throw error }
                        channel.close()
                        return result
                    }
                }
                let messages = try channel.messages(until: session.nextDeadline ?? deadline)
                let now = ContinuousClock.now
                actions = messages.flatMap { session.receive($0, at: now) } + session.tick(at: now)
            }
        } catch {
            result.error = error
            return result
        }
    }
}

/// Set once, from a cancellation handler; read by the probe's thread.
private final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}
