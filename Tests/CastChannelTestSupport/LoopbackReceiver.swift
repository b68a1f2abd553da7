import CastDiscovery
import CastChannel
import COpenSSL
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A Cast receiver on loopback for the tests of the probe and of `cast-scan status`: TLS with
/// the fixture's v1 certificate (OpenSSL, blocking, on a thread of its own), and a behaviour
/// to show: answer, stay silent, send garbage, and so on. One connection; `stop()` ends it. A
/// receiver that answers its status answers a device-authentication challenge with an
/// AuthError (it has no Cast key), so a sender does not wait for it.
package final class LoopbackReceiver: @unchecked Sendable {
    package enum Behaviour: Sendable {
        /// Answers GET_STATUS with this status object (JSON).
        case answer(String)
        /// Answers another request id first, floods PINGs, then answers.
        case pingFloodThenAnswer(String)
        /// Answers GET_STATUS with this status object, then sends bytes that are not a frame.
        case answerThenGarbage(String)
        /// Completes TLS, then says nothing.
        case silentAfterTLS
        /// Accepts TCP, never starts TLS.
        case stallTLS
        /// Sends these bytes after TLS, as they are (frames or not).
        case rawAfterTLS([UInt8])
        /// Sends a RECEIVER_STATUS whose payload is not JSON.
        case notJSON
        /// Sends CLOSE on the connection namespace.
        case closeChannel
    }

    static let pemPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/cast-channel/test-receiver.pem").path

    package let port: UInt16
    private let listener: Int32
    private let stopped = Atomic<Bool>(false)
    private let acceptedOne = Atomic<Bool>(false)
    /// Whether a client connected (the receiver takes one connection).
    package var accepted: Bool { acceptedOne.load(ordering: .acquiring) }
    /// Whether the listener is still open: its thread closes it once `accept` returns, and
    /// `stop()` shuts it down only while it is open (a closed descriptor's number may already
    /// be another test's socket).
    private let listenerOpen = LockedValue(true)

    package init(_ behaviour: Behaviour) throws {
        signal(SIGPIPE, SIG_IGN)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard bound == 0, listen(listener, 4) == 0 else {
            close(listener)
            throw POSIXError(.EADDRINUSE)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        self.listener = listener
        Thread.detachNewThread { [self] in
            let client = accept(listener, nil, nil)
            listenerOpen.withLock { open in
                close(listener)
                open = false
            }
            guard client >= 0 else { return }
            acceptedOne.store(true, ordering: .releasing)
            defer { close(client) }
            serve(client, behaviour)
        }
    }

    /// Stops serving: the listener refuses new connections at once (Linux resets them after a
    /// listening socket's shutdown), and the connection ends at its next read.
    package func stop() {
        stopped.store(true, ordering: .releasing)
        listenerOpen.withLock { open in
            if open { shutdown(listener, Int32(SHUT_RDWR)) }
        }
    }

    private func serve(_ client: Int32, _ behaviour: Behaviour) {
        if case .stallTLS = behaviour {
            var byte: UInt8 = 0
            while !stopped.load(ordering: .acquiring), recv(client, &byte, 1, 0) > 0 {}
            return
        }
        Self.acceptTLS(on: client) { ssl in converse(ssl, behaviour) }
    }

    /// Runs the receiver's side of the TLS handshake on `client` with the fixture's v1
    /// certificate (blocking), then `body` with the session; nothing when the handshake fails.
    static func acceptTLS(on client: Int32, _ body: (OpaquePointer) -> Void) {
        guard let context = SSL_CTX_new(TLS_server_method()) else { return }
        defer { SSL_CTX_free(context) }
        guard SSL_CTX_use_certificate_file(context, pemPath, SSL_FILETYPE_PEM) == 1,
            SSL_CTX_use_PrivateKey_file(context, pemPath, SSL_FILETYPE_PEM) == 1, let ssl = SSL_new(context)
        else { return }
        defer { SSL_free(ssl) }
        SSL_set_fd(ssl, client)
        guard SSL_accept(ssl) == 1 else { return }
        body(ssl)
    }

    private func converse(_ ssl: OpaquePointer, _ behaviour: Behaviour) {
        func send(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) } }
        func sendJSON(_ json: String, on namespace: String = CastNamespace.receiver) {
            send(try! CastFrameDecoder.frame(.json(json, from: "receiver-0", to: "sender-0", on: namespace)))
        }
        var decoder = CastFrameDecoder()
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while !stopped.load(ordering: .acquiring) {
            let count = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            guard count > 0 else { return }
            decoder.append(buffer.prefix(Int(count)))
            while let message = try? decoder.next() {
                if message.namespace == CastNamespace.deviceAuth, behaviour.answersStatus {
                    send(
                        try! CastFrameDecoder.frame(
                            CastMessage(
                                sourceID: "receiver-0", destinationID: "sender-0", namespace: CastNamespace.deviceAuth,
                                payloadType: .binary, payloadBinary: DeviceAuthMessage(error: .internalError).encoded())
                        ))
                }
                guard message.namespace == CastNamespace.receiver, let text = message.payloadUTF8,
                    let request = try? ReceiverMessage(json: text), request.type == "GET_STATUS",
                    let id = request.requestId
                else { continue }
                switch behaviour {
                case .answer(let status):
                    sendJSON(#"{"type":"RECEIVER_STATUS","requestId":\#(id),"status":\#(status)}"#)
                case .answerThenGarbage(let status):
                    send(
                        try! CastFrameDecoder.frame(
                            .json(
                                #"{"type":"RECEIVER_STATUS","requestId":\#(id),"status":\#(status)}"#,
                                from: "receiver-0", to: "sender-0",
                                on: CastNamespace.receiver)) + [0, 0, 0, 3, 0xFF, 0xFF, 0xFF])
                case .pingFloodThenAnswer(let status):
                    sendJSON(#"{"type":"RECEIVER_STATUS","requestId":\#(id + 100),"status":{"isStandBy":true}}"#)
                    for _ in 0..<2_000 { sendJSON(#"{"type":"PING"}"#, on: CastNamespace.heartbeat) }
                    sendJSON(#"{"type":"RECEIVER_STATUS","requestId":\#(id),"status":\#(status)}"#)
                case .silentAfterTLS, .stallTLS:
                    break
                case .rawAfterTLS(let bytes):
                    send(bytes)
                case .notJSON:
                    sendJSON("RECEIVER_STATUS, but not JSON")
                case .closeChannel:
                    sendJSON(#"{"type":"CLOSE"}"#, on: CastNamespace.connection)
                }
            }
        }
    }
}

extension LoopbackReceiver.Behaviour {
    /// Whether the receiver answers GET_STATUS with a status.
    var answersStatus: Bool {
        switch self {
        case .answer, .pingFloodThenAnswer, .answerThenGarbage: true
        case .silentAfterTLS, .stallTLS, .rawAfterTLS, .notJSON, .closeChannel: false
        }
    }
}
