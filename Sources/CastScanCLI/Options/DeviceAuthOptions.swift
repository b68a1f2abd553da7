import CastChannel
import CastDiscovery
import FoundationEssentials

/// What every command that authenticates receivers takes: whether to ask (`--no-auth`), the
/// roots of your own to trust (`--cast-root`) and a revocation list (`--cast-crl`).
struct DeviceAuthOptions: Sendable {
    static let noAuth = OptionDeclaration.flag(
        "no-auth", help: "do not ask receivers to prove they are genuine Cast devices (device authentication)")
    static let castRoot = OptionDeclaration.value(
        "cast-root", valueName: "FILE", repeatable: true,
        help:
            "also trust this root certificate (PEM or DER) for device chains and revocation lists: a lab's, publish's (--auth-root) or a development device's; a verdict names it and never calls it a Cast root"
    )
    static let castCRL = OptionDeclaration.value(
        "cast-crl", valueName: "FILE",
        help: "also check revocation against this Cast CRL bundle (the receiver's own list is checked too)")

    /// The options of a command that may skip authentication.
    static let declarations = [noAuth, castRoot, castCRL]
    /// The options of a command that always verifies (`auth verify`).
    static let verifierDeclarations = [castRoot, castCRL]

    /// The largest root or revocation-list file read.
    static let maximumFileSize = 1024 * 1024

    /// The verifier; nil with `--no-auth`.
    let verifier: DeviceAuthVerifier?

    /// The options given; a file that cannot be read or holds no certificate (or no bundle) is
    /// a ``CommandFailure`` with exit status 65. `asks` says whether the command talks to
    /// receivers at all (`--status`): when it does not, nothing is read, no verifier is built
    /// (so OpenSSL is never loaded), and an option here is a usage error. When it does, OpenSSL
    /// must load: a ``CommandFailure`` with 69 when it cannot.
    init(_ arguments: ParsedArguments, asks: Bool = true) throws {
        guard asks else {
            if let given = Self.declarations.first(where: { arguments.isSet($0) }) {
                throw UsageError.needsOption(option: given.displayName, needed: "--status")
            }
            verifier = nil
            return
        }
        // Asking receivers needs OpenSSL for TLS, with or without authentication: a missing
        // libssl3 is said now, with 69, rather than as a failure of every receiver.
        do {
            try OpenSSLLibrary.load()
        } catch {
            throw CommandFailure(message: error.message, exitCode: .unavailable)
        }
        guard !arguments.isSet(Self.noAuth) else {
            verifier = nil
            return
        }
        verifier = try Self.verifier(arguments)
    }

    /// The verifier the options describe (`--no-auth` aside).
    static func verifier(_ arguments: ParsedArguments) throws(CommandFailure) -> DeviceAuthVerifier {
        var store = CastTrustStore.google
        for path in arguments.values(of: castRoot) {
            let bytes = try read(path, what: "--cast-root")
            do {
                store = store.adding(try CastTrustAnchor.custom(pemOrDER: bytes))
            } catch {
                throw CommandFailure(message: "--cast-root \(path): \(error.message)", exitCode: .dataError)
            }
        }
        var list: [UInt8]?
        if let path = arguments.value(of: castCRL) {
            let bytes = try read(path, what: "--cast-crl")
            do {
                _ = try CastCRLBundle(decoding: bytes)
            } catch {
                throw CommandFailure(message: "--cast-crl \(path): \(error.message)", exitCode: .dataError)
            }
            list = bytes
        }
        return DeviceAuthVerifier(trustStore: store, revocationList: list)
    }

    /// The bytes of the regular file at `path`, bounded.
    static func read(_ path: String, what: String, limit: Int = maximumFileSize) throws(CommandFailure) -> [UInt8] {
        do {
            return Array(try BoundedFile.read(path: path, limit: limit))
        } catch {
            throw CommandFailure(message: "\(what) \(path): \(error)", exitCode: .dataError)
        }
    }
}
