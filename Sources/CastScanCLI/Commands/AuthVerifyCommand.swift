import CastChannel
import CastDiscovery
import FoundationEssentials

/// `cast-scan auth verify`: the verdict on a receiver's saved answer to the device-authentication
/// challenge (`status --save-auth`), at a time given: the same verdict `status` gave, anywhere.
struct AuthVerifyCommand: Command {
    static let response = OptionDeclaration.value(
        "response", valueName: "FILE", help: "the receiver's answer, as received (HOST_PORT.auth-response.bin)")
    static let tlsCertificate = OptionDeclaration.value(
        "tls-certificate", valueName: "FILE",
        help: "the TLS certificate the receiver presented, DER or PEM (HOST_PORT.tls-certificate.der)")
    static let at = OptionDeclaration.value(
        "at", valueName: "RFC3339-TIME", help: "check at this time, as 2026-12-06T12:00:00Z (default: now)")

    static let declaration = CommandDeclaration(
        name: "verify", abstract: "Verify a saved answer to the device-authentication challenge.",
        discussion:
            "The nonce sent is not saved, so an echoed nonce cannot be compared: it counts as echoed when present. Exit status 0 when the receiver is genuine, 1 when not, 65 when a file cannot be read or the TLS certificate is not one.",
        options: [response, tlsCertificate, at] + DeviceAuthOptions.verifierDeclarations + [JSONOutput.option],
        inheritsOptions: false)

    /// The largest answer read: the deviceauth bounds allow about 0.5 MiB.
    static let maximumResponseSize = 1024 * 1024

    /// The `--json` output.
    struct Output: Encodable {
        let schemaVersion = 1
        var checkedAt: Date
        var auth: DeviceAuthReport
    }

    let context: CommandContext
    let responsePath: String
    let certificatePath: String
    let time: Date?

    init(_ context: CommandContext) throws {
        self.context = context
        let arguments = context.arguments
        guard let responsePath = arguments.value(of: Self.response) else {
            throw UsageError.missingArgument("--response")
        }
        guard let certificatePath = arguments.value(of: Self.tlsCertificate) else {
            throw UsageError.missingArgument("--tls-certificate")
        }
        self.responsePath = responsePath
        self.certificatePath = certificatePath
        if let text = arguments.value(of: Self.at) {
            guard let date = Self.date(text) else {
                throw UsageError.invalidValue(
                    option: "--at", value: text, expected: "an RFC 3339 time, as 2026-12-06T12:00:00Z")
            }
            time = date
        } else {
            time = nil
        }
    }

    func run() async throws -> ExitCode {
        let verifier = try DeviceAuthOptions.verifier(context.arguments)
        let answer = try DeviceAuthOptions.read(responsePath, what: "--response", limit: Self.maximumResponseSize)
        let certificateFile = try DeviceAuthOptions.read(certificatePath, what: "--tls-certificate")
        guard let certificate = DeviceAuthEvidence.certificateDER(pemOrDER: certificateFile) else {
            throw CommandFailure(
                message: "--tls-certificate \(certificatePath): not a certificate (DER or PEM)", exitCode: .dataError)
        }
        let checkedAt = time ?? context.wallClock()
        let verdict = DeviceAuthEvidence(response: answer, tlsCertificate: certificate, nonce: nil)
            .verdict(by: verifier, at: checkedAt)
        if context.arguments.isSet(JSONOutput.option) {
            let output = Output(checkedAt: checkedAt, auth: DeviceAuthReport(verdict))
            context.console.write(try JSONOutput.string(output, format: .pretty))
        } else {
            Self.lines(verdict, at: checkedAt).forEach { context.console.line(TerminalText.sanitize($0)) }
        }
        return verdict.authenticated ? .ok : .noDevices
    }

    /// The verdict in lines: the sentence, each check, the device certificate, the details.
    static func lines(_ verdict: DeviceAuthVerdict, at time: Date) -> [String] {
        var lines = [DeviceAuthText.sentence(verdict)]
        let checks = verdict.checks
        lines.append(
            "checks: tlsCertificate \(checks.tlsCertificate.rawValue), signature \(checks.signature.rawValue), "
                + "chain \(checks.chain.rawValue), revocation \(checks.revocation.rawValue)")
        for failure in verdict.failures.dropFirst() {
            lines.append("also: \(failure.code.rawValue): \(failure.message)")
        }
        if let device = verdict.deviceCertificate {
            let notAfter = device.notAfter.map { $0.formatted(JSONOutput.dateStyle) } ?? "?"
            lines.append("device certificate: \(device.subject), serial \(device.serial), until \(notAfter)")
            lines.append("device certificate SHA-256: \(device.sha256)")
        }
        if let anchor = verdict.anchor {
            lines.append(
                "anchor: \(anchor)\(verdict.anchorKind == .custom ? " (a root of your own, not Google's)" : "")")
        }
        if let hash = verdict.hashAlgorithm {
            lines.append("signed with \(hash); nonce echoed: \(verdict.nonceEchoed ? "yes" : "no")")
        }
        lines.append("checked at \(time.formatted(JSONOutput.dateStyle))")
        return lines
    }

    /// An RFC 3339 time, with or without fractional seconds.
    static func date(_ text: String) -> Date? {
        if let date = try? JSONOutput.dateStyle.parse(text) { return date }
        return try? Date.ISO8601FormatStyle(timeZone: .gmt).parse(text)
    }
}
