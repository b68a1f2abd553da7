import CastDiscovery
internal import COpenSSL

/// A server's certificate chain and private key from PEM files, checked as Go's
/// `tls.LoadX509KeyPair` checks them: at least one certificate, a private key, and the key the
/// one the first certificate names. Read with Debian's OpenSSL (loaded when first needed).
enum TLSKeyPair {
    /// Refuses a pair that does not load or match, saying which file and why.
    static func check(certificateFile: String, keyFile: String) throws(WebConfigurationError) {
        let certificateBytes = try read(certificateFile, "cert_file")
        let keyBytes = try read(keyFile, "key_file")
        try loadOpenSSL()
        ERR_clear_error()
        defer { ERR_clear_error() }
        let certificate = certificateBytes.withUnsafeBytes { raw -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_X509(bio, nil, nil, nil)
        }
        guard let certificate else {
            throw WebConfigurationError("tls_server_config.cert_file \(certificateFile): no PEM certificate in it")
        }
        defer { X509_free(certificate) }
        let key = keyBytes.withUnsafeBytes { raw -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let key else {
            throw WebConfigurationError("tls_server_config.key_file \(keyFile): no PEM private key in it")
        }
        defer { EVP_PKEY_free(key) }
        guard X509_check_private_key(certificate, key) == 1 else {
            throw WebConfigurationError(
                "tls_server_config: the key in \(keyFile) is not the one the certificate in \(certificateFile) names")
        }
    }

    /// Loads OpenSSL if it is not yet; why not when it cannot be.
    static func loadOpenSSL() throws(WebConfigurationError) {
        var reason = [CChar](repeating: 0, count: 256)
        guard !reason.withUnsafeMutableBufferPointer({ cast_openssl_load($0.baseAddress, $0.count) }) else { return }
        let text = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        throw WebConfigurationError("TLS needs OpenSSL (libssl3), which cannot be loaded: \(text)")
    }

    private static func read(_ path: String, _ field: String) throws(WebConfigurationError) -> [UInt8] {
        do {
            return Array(try BoundedFile.read(path: path, limit: WebConfiguration.maximumFileSize))
        } catch {
            throw WebConfigurationError("tls_server_config.\(field) \(path): \(error)")
        }
    }
}
