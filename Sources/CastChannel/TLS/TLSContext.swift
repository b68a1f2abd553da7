import CastDiscovery
internal import COpenSSL

/// OpenSSL's settings for a kind of TLS session (an `SSL_CTX`), made once and shared by every
/// session of that kind; OpenSSL lets threads share a context once it is set up.
final class TLSContext: @unchecked Sendable {
    let pointer: OpaquePointer

    private init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        SSL_CTX_free(pointer)
    }

    private static let shared = LockedValue<TLSContext?>(nil)

    /// The sender's context, made on first use.
    ///
    /// The receiver's certificate is not verified: Cast devices present self-signed X.509 v1
    /// certificates that rotate every few days, and no sender checks them against a CA (device
    /// authentication is a separate step on the channel). OpenSSL's security level is 1, so the
    /// older keys and ciphers some TVs still have are accepted; TLS 1.2 at least.
    static func client() throws(CastChannelError) -> TLSContext {
        try shared.withLock { shared throws(CastChannelError) -> TLSContext in
            if let shared { return shared }
            try OpenSSLLibrary.load()
            guard let context = SSL_CTX_new(TLS_client_method()) else { throw TLSSession.error("SSL_CTX_new failed") }
            SSL_CTX_set_verify(context, SSL_VERIFY_NONE, nil)
            SSL_CTX_set_security_level(context, 1)
            _ = SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil)
            let made = TLSContext(context)
            shared = made
            return made
        }
    }

    /// A simulated receiver's context: it presents `certificate` (as a device presents its
    /// own), TLS 1.2 at least, and asks no certificate of the sender.
    static func server(_ certificate: TLSCertificate) throws(CastChannelError) -> TLSContext {
        try OpenSSLLibrary.load()
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw TLSSession.error("SSL_CTX_new failed") }
        let made = TLSContext(context)
        _ = SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil)
        guard SSL_CTX_use_certificate(context, certificate.certificate) == 1,
            SSL_CTX_use_PrivateKey(context, certificate.key) == 1
        else { throw TLSSession.error("the certificate cannot be used: \(TLSSession.reason())") }
        return made
    }
}
