internal import COpenSSL

/// A simulated receiver's certificate: a new 2048-bit RSA key and a self-signed X.509 v1
/// certificate for it, as Cast devices present (made at start, never written to disk).
public final class TLSCertificate: Sendable {
    private let privateKey: PrivateKey
    private let x509: X509Certificate
    /// The certificate's subject and issuer common name.
    public let commonName: String

    /// Makes a key and a certificate for `commonName`, valid from an hour ago for `days` days.
    ///
    /// - Throws: ``CastChannelError`` (`tls`) with OpenSSL's reason when it cannot.
    public init(commonName: String, days: Int = 2) throws(CastChannelError) {
        try OpenSSLLibrary.load()
        var key: OpaquePointer?
        var certificate: OpaquePointer?
        let serial = Int.random(in: 1...Int(Int32.max))
        guard cast_make_certificate(commonName, serial, Int32(clamping: max(1, days)), &key, &certificate) == 1,
            let key, let certificate
        else { throw TLSSession.error("cannot make a certificate: \(TLSSession.reason())") }
        privateKey = PrivateKey(owning: key)
        guard let x509 = X509Certificate(owning: certificate) else {
            throw TLSSession.error("cannot encode the certificate: \(TLSSession.reason())")
        }
        self.x509 = x509
        self.commonName = commonName
    }

    /// A certificate made elsewhere (``DeviceAuthAuthority/tlsCertificate(commonName:days:)``).
    init(key: PrivateKey, certificate: X509Certificate, commonName: String) {
        privateKey = key
        x509 = certificate
        self.commonName = commonName
    }

    /// The key, for OpenSSL.
    var key: OpaquePointer { privateKey.pointer }
    /// The certificate, for OpenSSL.
    var certificate: OpaquePointer { x509.pointer }
    /// The certificate (DER), as a sender receives it.
    public var der: [UInt8] { x509.der }
}
