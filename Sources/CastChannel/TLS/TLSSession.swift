internal import COpenSSL

/// One TLS connection over memory buffers (OpenSSL, memory BIOs), a sender's or a simulated
/// receiver's: bytes from the network go in with ``receive(_:)``, bytes for the network come
/// out of ``takeOutgoing()``, so the channel does its own socket I/O (and no write can raise
/// `SIGPIPE`). Its settings come from a ``TLSContext``.
///
/// One thread at a time; not `Sendable`.
final class TLSSession {
    /// What a sender offers, said when a handshake fails.
    static let offered = "TLS 1.2 or 1.3, OpenSSL's default ciphers at security level 1"

    private let context: TLSContext
    private let ssl: OpaquePointer
    private let incoming: OpaquePointer
    private let outgoing: OpaquePointer

    /// A sender's session (``TLSContext/client``); `serverName` is sent as SNI when it is a
    /// host name.
    convenience init(serverName: String?) throws(CastChannelError) {
        try self.init(context: try TLSContext.client(), serverName: serverName, accepting: false)
    }

    /// A receiver's session, accepting a sender's handshake with `context`'s certificate.
    convenience init(accepting context: TLSContext) throws(CastChannelError) {
        try self.init(context: context, serverName: nil, accepting: true)
    }

    private init(context: TLSContext, serverName: String?, accepting: Bool) throws(CastChannelError) {
        guard let ssl = SSL_new(context.pointer) else { throw Self.error("SSL_new failed") }
        guard let incoming = BIO_new(BIO_s_mem()) else {
            SSL_free(ssl)
            throw Self.error("BIO_new failed")
        }
        guard let outgoing = BIO_new(BIO_s_mem()) else {
            BIO_free(incoming)
            SSL_free(ssl)
            throw Self.error("BIO_new failed")
        }
        cast_bio_set_mem_eof_retry(incoming)
        cast_bio_set_mem_eof_retry(outgoing)
        SSL_set_bio(ssl, incoming, outgoing)  // the SSL owns both now
        if accepting {
            SSL_set_accept_state(ssl)
        } else {
            SSL_set_connect_state(ssl)
            if let serverName, Self.isHostName(serverName) { _ = cast_ssl_set_host_name(ssl, serverName) }
        }
        self.context = context
        self.ssl = ssl
        self.incoming = incoming
        self.outgoing = outgoing
    }

    deinit {
        SSL_free(ssl)
    }

    /// Whether `name` is a host name (SNI is for names, never addresses: RFC 6066 section 3).
    static func isHostName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains(":") && !name.allSatisfy { $0.isNumber || $0 == "." }
    }

    /// Takes bytes read from the network.
    func receive(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { buffer in
            _ = BIO_write(incoming, buffer.baseAddress, Int32(buffer.count))
        }
    }

    /// The bytes to send to the network, taken out.
    func takeOutgoing() -> [UInt8] {
        let count = cast_bio_pending(outgoing)
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(count))
        let read = bytes.withUnsafeMutableBytes { BIO_read(outgoing, $0.baseAddress, Int32($0.count)) }
        return read > 0 ? Array(bytes.prefix(Int(read))) : []
    }

    /// Moves the handshake on with what was received: true once it is done, false while it
    /// waits for more bytes from the network.
    ///
    /// - Throws: ``CastChannelError`` of kind `.tls` with OpenSSL's reason.
    func handshake() throws(CastChannelError) -> Bool {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 { return true }
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return false
        default:
            throw Self.error("handshake failed: \(Self.reason()) (offered \(Self.offered))")
        }
    }

    /// What the handshake agreed, once it is done.
    var negotiated: TLSParameters? {
        guard SSL_is_init_finished(ssl) == 1 else { return nil }
        let version = SSL_get_version(ssl).map { String(cString: $0) } ?? "?"
        let cipher = SSL_get_current_cipher(ssl).flatMap { SSL_CIPHER_get_name($0) }.map { String(cString: $0) } ?? "?"
        return TLSParameters(protocol: version, cipher: cipher)
    }

    /// The certificate the peer presented (DER), once the handshake is done; nil when none.
    var peerCertificate: [UInt8]? {
        guard SSL_is_init_finished(ssl) == 1, let certificate = SSL_get1_peer_certificate(ssl) else { return nil }
        defer { X509_free(certificate) }
        var out: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(certificate, &out)
        guard length > 0, let out else { return nil }
        defer { CRYPTO_free(out, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }

    /// Encrypts `plaintext` for sending (then ``takeOutgoing()``).
    func send(_ plaintext: [UInt8]) throws(CastChannelError) {
        guard !plaintext.isEmpty else { return }
        ERR_clear_error()
        let written = plaintext.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
        guard written == Int32(plaintext.count) else {
            throw Self.error("a write failed: \(Self.reason())")
        }
    }

    /// The plaintext the received bytes make, at most `limit` bytes; empty when more bytes
    /// are needed.
    ///
    /// - Throws: ``CastChannelError`` `.closed` when the receiver ended the TLS session,
    ///   `.tls` when the bytes are not TLS.
    func read(limit: Int = 16_384) throws(CastChannelError) -> [UInt8] {
        ERR_clear_error()
        var buffer = [UInt8](repeating: 0, count: limit)
        let count = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
        if count > 0 { return Array(buffer.prefix(Int(count))) }
        switch SSL_get_error(ssl, count) {
        case SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE:
            return []
        case SSL_ERROR_ZERO_RETURN:
            throw CastChannelError(.closed, "the receiver ended the TLS session")
        default:
            throw Self.error("a read failed: \(Self.reason())")
        }
    }

    /// Starts a TLS close (close_notify); send what ``takeOutgoing()`` gives.
    func shutdown() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
    }

    static func error(_ message: String) -> CastChannelError {
        CastChannelError(.tls, message)
    }

    /// OpenSSL's reasons for the last failure, oldest first.
    static func reason() -> String {
        var reasons: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            if reasons.count == 4 { break }
        }
        return reasons.isEmpty
            ? "no reason given (the receiver closed the connection?)" : reasons.joined(separator: "; ")
    }
}
