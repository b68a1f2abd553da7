import CastDiscovery
import FoundationEssentials
internal import COpenSSL

/// A simulated Cast vendor for `cast-scan publish` and tests: a root of its own, an intermediate
/// for screens and one for speakers (with Cast's audio-only policy), and a device key, made
/// with libcrypto at start and kept in memory. A sender trusts it only when given its root
/// (``rootPEM``, `--cast-root`); without, it sees `untrustedChain`, as the Cast SDK would.
public final class DeviceAuthAuthority: Sendable {
    /// The root's common name.
    public static let rootName = "cast-scan publish Root CA"

    private let rootKey: PrivateKey
    private let root: X509Certificate
    private let intermediateKey: PrivateKey
    private let intermediate: X509Certificate
    private let audioIntermediate: X509Certificate
    let deviceKey: PrivateKey
    /// The time the certificates are made around, seconds since 1970.
    private let time: Int64
    private let serials = LockedValue<Int>(0x1000)

    /// Makes the keys, the root and the intermediates, valid from a day before `date` for 20
    /// years (the span of real device chains).
    ///
    /// - Throws: ``CastChannelError`` (`tls`) with OpenSSL's reason when it cannot.
    public init(at date: Date) throws(CastChannelError) {
        let time = CertificateTime.seconds(date)
        self.time = time
        rootKey = try PrivateKey()
        root = try Self.make(
            "root certificate", key: rootKey, name: Self.rootName, issuer: nil, issuerKey: rootKey, serial: 1,
            time: time, extensions: ("critical,CA:TRUE,pathlen:1", "critical,keyCertSign,cRLSign", nil))
        intermediateKey = try PrivateKey()
        intermediate = try Self.make(
            "intermediate certificate", key: intermediateKey, name: "cast-scan publish ICA", issuer: root,
            issuerKey: rootKey, serial: 2, time: time,
            extensions: ("critical,CA:TRUE,pathlen:0", "critical,keyCertSign,cRLSign", nil))
        audioIntermediate = try Self.make(
            "audio intermediate certificate", key: intermediateKey, name: "cast-scan publish ICA (Audio)",
            issuer: root, issuerKey: rootKey, serial: 3, time: time,
            extensions: (
                "critical,CA:TRUE,pathlen:0", "critical,keyCertSign,cRLSign", CastPathValidator.audioOnlyPolicy
            ))
        deviceKey = try PrivateKey()
    }

    /// The root certificate, PEM: what a sender passes with `--cast-root`.
    public var rootPEM: String { root.pem }

    /// A device's identity: a device certificate for `commonName` under the screen or the
    /// speaker intermediate, with the authority's device key.
    ///
    /// - Throws: ``CastChannelError`` (`tls`) when the certificate cannot be made.
    public func identity(commonName: String, audioOnly: Bool) throws(CastChannelError) -> DeviceAuthIdentity {
        let serial = serials.withLock { serial -> Int in
            serial += 1
            return serial
        }
        let issuer = audioOnly ? audioIntermediate : intermediate
        let device = try Self.make(
            "device certificate", key: deviceKey, name: commonName, issuer: issuer, issuerKey: intermediateKey,
            serial: serial, time: time,
            extensions: ("critical,CA:FALSE", "critical,digitalSignature,keyEncipherment", nil))
        return DeviceAuthIdentity(key: deviceKey, device: device.der, intermediates: [issuer.der])
    }

    /// A TLS certificate as a receiver presents: X.509 v1, self-signed with a key of its own,
    /// valid from an hour before the authority's time for `days` days.
    ///
    /// - Throws: ``CastChannelError`` (`tls`) when it cannot be made.
    public func tlsCertificate(commonName: String, days: Int = 2) throws(CastChannelError) -> TLSCertificate {
        let key = try PrivateKey()
        let certificate = try Self.make(
            "TLS certificate", key: key, name: commonName, issuer: nil, issuerKey: key,
            serial: Int.random(in: 1...Int(Int32.max)), time: time, from: -3600, to: max(1, min(days, 3650)) * 86_400,
            extensions: (nil, nil, nil))
        return TLSCertificate(key: key, certificate: certificate, commonName: commonName)
    }

    private static func make(
        _ what: String, key: PrivateKey, name: String, issuer: X509Certificate?, issuerKey: PrivateKey, serial: Int,
        time: Int64, from: Int = -86_400, to: Int = 20 * 365 * 86_400,
        extensions: (basicConstraints: String?, keyUsage: String?, policies: String?)
    ) throws(CastChannelError) -> X509Certificate {
        let organization: String? = issuer == nil && extensions.basicConstraints == nil ? nil : "cast-scan"
        guard
            let made = cast_make_x509(
                key.pointer, organization, String(name.prefix(64)), issuer?.pointer, issuerKey.pointer, serial, time,
                from, to, extensions.basicConstraints, extensions.keyUsage, extensions.policies),
            let certificate = X509Certificate(owning: made)
        else { throw TLSSession.error("cannot make the \(what): \(TLSSession.reason())") }
        return certificate
    }
}
