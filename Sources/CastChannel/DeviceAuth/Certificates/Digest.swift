internal import COpenSSL

/// Message digests and RSA signature checks through libcrypto's EVP interface.
enum Digest {
    /// SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        guard OpenSSLLibrary.isAvailable else { return [] }
        var digest = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        let done = bytes.withUnsafeBytes { data in
            digest.withUnsafeMutableBufferPointer {
                EVP_Digest(data.baseAddress, data.count, $0.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        return done == 1 && length == 32 ? digest : []
    }

    /// Whether `signature` is an RSASSA-PKCS1-v1_5 signature over `data` by `key` with `hash`.
    /// An empty signature, a key that is not RSA or an error of libcrypto is a no.
    static func verifyPKCS1(
        signature: [UInt8], over data: [UInt8], key: OpaquePointer, hash: DeviceAuthHashAlgorithm
    ) -> Bool {
        guard !signature.isEmpty, EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA, let context = EVP_MD_CTX_new() else {
            return false
        }
        defer {
            EVP_MD_CTX_free(context)
            ERR_clear_error()
        }
        var keyContext: OpaquePointer?
        let digest = hash == .sha256 ? EVP_sha256() : EVP_sha1()
        guard EVP_DigestVerifyInit(context, &keyContext, digest, nil, key) == 1, let keyContext,
            EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PADDING) == 1
        else { return false }
        return signature.withUnsafeBufferPointer { signed in
            data.withUnsafeBufferPointer {
                EVP_DigestVerify(context, signed.baseAddress, signed.count, $0.baseAddress, $0.count)
            }
        } == 1
    }
}

extension [UInt8] {
    /// The bytes in hexadecimal, lower case.
    var hexText: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(count * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
