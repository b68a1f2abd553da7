import CastChannel
import Foundation

/// Simulated receivers on loopback that answer the device-authentication challenge as
/// `cast-scan publish`'s do: a ``DeviceAuthAuthority`` made at the time given, one receiver a
/// screen and one a speaker, and the authority's root in a file for `--cast-root`.
package final class AuthenticatingReceivers: @unchecked Sendable {
    package let server: ReceiverChannelServer
    package let authority: DeviceAuthAuthority
    /// The screen's port and the speaker's.
    package let screenPort: UInt16
    package let speakerPort: UInt16

    package init(at date: Date, status: String = "{}") throws {
        authority = try DeviceAuthAuthority(at: date)
        server = try ReceiverChannelServer(
            certificate: try authority.tlsCertificate(commonName: "loopback"), handshakeTimeout: .seconds(600))
        screenPort = try server.listen(
            receiver: 0, addresses: ["127.0.0.1"], port: 0, status: status,
            identity: try authority.identity(commonName: "Loopback TV", audioOnly: false))
        speakerPort = try server.listen(
            receiver: 1, addresses: ["127.0.0.1"], port: 0, status: status,
            identity: try authority.identity(commonName: "Loopback speaker", audioOnly: true))
        try server.start()
    }

    /// Writes the authority's root (PEM) to `path`.
    package func writeRoot(to path: String) throws {
        try Data(authority.rootPEM.utf8).write(to: URL(fileURLWithPath: path))
    }

    package func stop() { server.stop() }
}
