import CastDiscovery
internal import COpenSSL

/// OpenSSL's settings for the connections of a TLS server (an `SSL_CTX`), made from a web
/// configuration's `tls_server_config` as exporter-toolkit applies one: the certificate chain
/// and key, the protocol versions, the TLS 1.2 cipher suites (Go's names, IANA's), the curves,
/// the server's cipher order, and what a client must show. Shared by its connections; a new
/// one is made when the files change.
final class TLSServerContext: @unchecked Sendable {
    // Set up once in init, then only read by OpenSSL (which lets threads share a context).
    let pointer: OpaquePointer

    /// A context for `tls`; a ``WebConfigurationError`` saying what OpenSSL refused.
    init(_ tls: WebConfiguration.TLS) throws(WebConfigurationError) {
        try TLSKeyPair.loadOpenSSL()
        ERR_clear_error()
        defer { ERR_clear_error() }
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw Self.failure("cannot make a TLS context") }
        pointer = context
        guard SSL_CTX_use_certificate_chain_file(context, tls.certificateFile) == 1 else {
            throw Self.failure("tls_server_config.cert_file \(tls.certificateFile) does not load")
        }
        guard SSL_CTX_use_PrivateKey_file(context, tls.keyFile, SSL_FILETYPE_PEM) == 1,
            SSL_CTX_check_private_key(context) == 1
        else { throw Self.failure("tls_server_config.key_file \(tls.keyFile) does not load or match") }
        // Below TLS 1.2 only at OpenSSL's security level 0 (SHA-1 signatures).
        if tls.minimumVersion < .tls12 { SSL_CTX_set_security_level(context, 0) }
        guard
            cast_ssl_ctx_set_versions(context, Self.version(tls.minimumVersion), Self.version(tls.maximumVersion)) == 1
        else { throw Self.failure("the TLS versions \(tls.minimumVersion.rawValue) to \(tls.maximumVersion.rawValue)") }
        // TLS 1.3's suites are not configurable (as in Go): only TLS 1.2's go to OpenSSL.
        let twelve = tls.cipherSuites.filter { !Self.tls13Suites.contains($0) }
        if !twelve.isEmpty {
            let names = twelve.compactMap { name in OPENSSL_cipher_name(name).map { String(cString: $0) } }
            guard names.count == twelve.count, SSL_CTX_set_cipher_list(context, names.joined(separator: ":")) == 1
            else {
                throw Self.failure(
                    "tls_server_config.cipher_suites: OpenSSL has not all of \(twelve.joined(separator: ", "))")
            }
        }
        if !tls.curves.isEmpty {
            let groups = tls.curves.compactMap { Self.groups[$0] }.joined(separator: ":")
            guard cast_ssl_ctx_set_groups(context, groups) == 1 else {
                throw Self.failure("tls_server_config.curve_preferences: OpenSSL refuses \(groups)")
            }
        }
        if tls.preferServerCipherSuites { cast_ssl_ctx_prefer_server_ciphers(context) }
        cast_ssl_ctx_set_partial_writes(context)
        if let file = tls.clientCAFile {
            guard SSL_CTX_load_verify_locations(context, file, nil) == 1 else {
                throw Self.failure("tls_server_config.client_ca_file \(file) holds no certificate OpenSSL reads")
            }
            if let names = SSL_load_client_CA_file(file) { SSL_CTX_set_client_CA_list(context, names) }
        }
        let peer = Int32(SSL_VERIFY_PEER), required = Int32(SSL_VERIFY_FAIL_IF_NO_PEER_CERT)
        switch tls.clientAuth {
        case .noClientCert: SSL_CTX_set_verify(context, Int32(SSL_VERIFY_NONE), nil)
        case .requestClientCert: cast_ssl_ctx_set_client_verify(context, peer, 0)
        case .requireAnyClientCert: cast_ssl_ctx_set_client_verify(context, peer | required, 0)
        case .verifyClientCertIfGiven: cast_ssl_ctx_set_client_verify(context, peer, 1)
        case .requireAndVerifyClientCert: cast_ssl_ctx_set_client_verify(context, peer | required, 1)
        }
    }

    deinit { SSL_CTX_free(pointer) }

    static let tls13Suites: Set<String> = [
        "TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256",
    ]
    /// Go's curve names as OpenSSL names the groups.
    static let groups = ["CurveP256": "P-256", "CurveP384": "P-384", "CurveP521": "P-521", "X25519": "X25519"]

    private static func version(_ version: WebConfiguration.TLS.Version) -> Int32 {
        switch version {
        case .tls10: Int32(TLS1_VERSION)
        case .tls11: Int32(TLS1_1_VERSION)
        case .tls12: Int32(TLS1_2_VERSION)
        case .tls13: Int32(TLS1_3_VERSION)
        }
    }

    /// `what` with OpenSSL's last reason.
    private static func failure(_ what: String) -> WebConfigurationError {
        var text = [CChar](repeating: 0, count: 256)
        let code = ERR_get_error()
        guard code != 0 else { return WebConfigurationError(what) }
        ERR_error_string_n(code, &text, text.count)
        return WebConfigurationError(
            what + ": " + String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
}
