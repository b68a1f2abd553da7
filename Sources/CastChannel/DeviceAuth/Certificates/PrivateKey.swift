internal import COpenSSL

/// An RSA private key made by libcrypto, freed with its last reference.
final class PrivateKey: @unchecked Sendable {
    let pointer: OpaquePointer

    /// A new RSA key of `bits` bits.
    ///
    /// - Throws: ``CastChannelError`` (`tls`) with OpenSSL's reason when it cannot be made.
    init(rsaBits bits: Int32 = 2048) throws(CastChannelError) {
        try OpenSSLLibrary.load()
        guard let key = cast_make_rsa_key(bits) else {
            throw TLSSession.error("cannot make an RSA key: \(TLSSession.reason())")
        }
        pointer = key
    }

    /// Takes ownership of a key libcrypto made.
    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { EVP_PKEY_free(pointer) }

    /// An RSASSA-PKCS1-v1_5 signature of `data` with SHA-256 or SHA-1; nil on failure.
    func signPKCS1(_ data: [UInt8], hash: DeviceAuthHashAlgorithm) -> [UInt8]? {
        var signature = [UInt8](repeating: 0, count: Int(EVP_PKEY_get_size(pointer)))
        var length = signature.count
        let done = data.withUnsafeBufferPointer { input in
            signature.withUnsafeMutableBufferPointer { output in
                cast_sign_pkcs1(
                    pointer, hash == .sha256 ? 1 : 0, input.baseAddress, input.count, output.baseAddress, &length)
            }
        }
        ERR_clear_error()
        return done == 1 ? Array(signature.prefix(length)) : nil
    }
}
