internal import COpenSSL

/// A simulated receiver's certificate: a new 2048-bit RSA key and a self-signed X.509 v1
/// certificate for it, as Cast devices present (made at start, never written to disk).
public final class TLSCertificate: @unchecked Sendable {
    let key: OpaquePointer
    let certificate: OpaquePointer
    /// The certificate's subject and issuer common name.
    public let commonName: String

    /// Makes a key and a certificate for `commonName`, valid from an hour ago for `days` days.
    ///
    /// - Throws: ``CastChannelError`` (`tls`) with OpenSSL's reason when it cannot.
    public init(commonName: String, days: Int = 2) throws(CastChannelError) {
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        let serial = Int.random(in: 1...Int(Int32.max))
        guard cast_make_certificate(commonName, serial, Int32(clamping: max(1, days)), &key, &certificate) == 1,
            let key, let certificate
        else { throw TLSSession.error("cannot make a certificate: \(TLSSession.reason())") }
        self.key = key
        self.certificate = certificate
        self.commonName = commonName
    }

    deinit {
        X509_free(certificate)
        EVP_PKEY_free(key)
    }
}
