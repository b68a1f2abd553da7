import CastDiscovery
import CastChannel
import COpenSSL
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A Cast receiver on loopback that keeps its connections, as a device does, for the tests of
/// kept channels: any number of connections one after another or at once (a thread each), PONG
/// for every PING, GET_STATUS answered with the current status, and a broadcast (requestId 0)
/// to every open connection when the status changes. It can drop its connections, stop
/// listening (connections refused) and listen again on the same port, or stop answering PINGs.
package final class LoopbackKeptReceiver: @unchecked Sendable {
    package let port: UInt16
    private let state = LockedValue<State>(State())

    private struct State {
        var status: String
        var listener: Int32 = -1
        var accepted = 0
        var clients: [Int32: [String]] = [:]
        var answersPings = true
        var stopped = false
        init(status: String = "{}") { self.status = status }
    }

    /// Starts listening, answering with `status` (a RECEIVER_STATUS status object, JSON).
    package init(status: String) throws {
        signal(SIGPIPE, SIG_IGN)
        let listener = try Self.listen(port: 0)
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        state.withLock {
            $0.status = status
            $0.listener = listener
        }
        acceptLoop(listener)
    }

    /// How many connections were accepted so far.
    package var accepted: Int { state.withLock { $0.accepted } }
    /// How many connections are open now.
    package var openConnections: Int { state.withLock { $0.clients.count } }

    /// Changes the status and broadcasts it to every open connection.
    package func setStatus(_ status: String) {
        state.withLock { state in
            state.status = status
            for client in state.clients.keys {
                state.clients[client]?.append(#"{"type":"RECEIVER_STATUS","requestId":0,"status":\#(status)}"#)
            }
        }
    }

    /// Whether PINGs are answered (false: the sender sees silence).
    package func answerPings(_ answers: Bool) {
        state.withLock { $0.answersPings = answers }
    }

    /// Closes every open connection (the receiver went away for a moment).
    package func dropConnections() {
        state.withLock { state in
            for client in state.clients.keys { shutdown(client, Int32(SHUT_RDWR)) }
        }
    }

    /// Stops listening (new connections are refused) and drops the open ones.
    package func pause() {
        state.withLock { state in
            if state.listener >= 0 { shutdown(state.listener, Int32(SHUT_RDWR)) }
            state.listener = -1
            for client in state.clients.keys { shutdown(client, Int32(SHUT_RDWR)) }
        }
    }

    /// Listens again on the same port.
    package func resume() throws {
        let listener = try Self.listen(port: port)
        state.withLock { $0.listener = listener }
        acceptLoop(listener)
    }

    /// Stops for good.
    package func stop() {
        pause()
        state.withLock { $0.stopped = true }
    }

    private static func listen(port: UInt16) throws -> Int32 {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard bound == 0, Glibc.listen(listener, 64) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        return listener
    }

    private func acceptLoop(_ listener: Int32) {
        Thread.detachNewThread { [self] in
            defer { close(listener) }
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                let admitted = state.withLock { state -> Bool in
                    guard !state.stopped, state.listener == listener else { return false }
                    state.accepted += 1
                    state.clients[client] = []
                    return true
                }
                guard admitted else {
                    close(client)
                    return
                }
                Thread.detachNewThread { [self] in
                    serve(client)
                    state.withLock { _ = $0.clients.removeValue(forKey: client) }
                    close(client)
                }
            }
        }
    }

    private func serve(_ client: Int32) {
        LoopbackReceiver.acceptTLS(on: client) { ssl in converse(ssl, client) }
    }

    private func converse(_ ssl: OpaquePointer, _ client: Int32) {
        func sendJSON(_ json: String, on namespace: String = CastNamespace.receiver) {
            guard let frame = try? CastFrameDecoder.frame(.json(json, from: "receiver-0", to: "*", on: namespace))
            else { return }
            _ = frame.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        }
        var decoder = CastFrameDecoder()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            // What was broadcast meanwhile goes out first.
            let outbox = state.withLock { state -> [String]? in
                guard let waiting = state.clients[client] else { return nil }
                state.clients[client] = []
                return waiting
            }
            guard let outbox else { return }
            outbox.forEach { sendJSON($0) }
            var entry = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            if SSL_pending(ssl) == 0 {
                guard poll(&entry, 1, 20) >= 0 else { return }
                if entry.revents == 0 { continue }
            }
            let count = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            guard count > 0 else { return }
            decoder.append(buffer.prefix(Int(count)))
            while let message = try? decoder.next() {
                guard let text = message.payloadUTF8, let request = try? ReceiverMessage(json: text) else { continue }
                switch (message.namespace, request.type) {
                case (CastNamespace.heartbeat, "PING"):
                    if state.withLock({ $0.answersPings }) {
                        sendJSON(#"{"type":"PONG"}"#, on: CastNamespace.heartbeat)
                    }
                case (CastNamespace.receiver, "GET_STATUS"):
                    let status = state.withLock { $0.status }
                    sendJSON(#"{"type":"RECEIVER_STATUS","requestId":\#(request.requestId ?? 0),"status":\#(status)}"#)
                case (CastNamespace.connection, "CLOSE"):
                    return
                default:
                    break
                }
            }
        }
    }
}
