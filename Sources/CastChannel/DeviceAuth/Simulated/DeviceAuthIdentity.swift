/// What a simulated receiver answers the device-authentication challenge with: its device
/// certificate and intermediate, and a signature by its device key over the nonce it was sent
/// and its TLS certificate, as a Cast device does.
public struct DeviceAuthIdentity: Sendable {
    let key: PrivateKey
    /// The device certificate (DER).
    let device: [UInt8]
    /// The intermediates (DER), the device's issuer first.
    let intermediates: [[UInt8]]

    /// The answer (a DeviceAuthMessage's bytes) to `challenge` (the sender's BINARY payload),
    /// signed over the nonce and `tlsCertificate` (DER) with the hash asked for (SHA-1 when
    /// none is, as proto2's default says). A payload that is not a challenge, or asks for
    /// RSASSA-PSS, gets an AuthError, as devices answer.
    public func answer(_ challenge: [UInt8], tlsCertificate: [UInt8]) -> [UInt8] {
        guard let message = try? DeviceAuthMessage(decoding: challenge), let asked = message.challenge else {
            return DeviceAuthMessage(error: .internalError).encoded()
        }
        guard asked.signatureAlgorithm != .rsassaPSS else {
            return DeviceAuthMessage(error: .signatureAlgorithmUnavailable).encoded()
        }
        let hash = asked.hashAlgorithm ?? .sha1
        let nonce = asked.senderNonce ?? []
        guard let signature = key.signPKCS1(nonce + tlsCertificate, hash: hash) else {
            return DeviceAuthMessage(error: .internalError).encoded()
        }
        let response = AuthResponse(
            signature: signature, clientAuthCertificate: device, intermediateCertificates: intermediates,
            senderNonce: asked.senderNonce, hashAlgorithm: hash)
        return DeviceAuthMessage(response: response).encoded()
    }
}
