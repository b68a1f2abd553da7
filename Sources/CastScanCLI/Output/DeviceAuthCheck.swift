import CastChannel
import CastDiscovery
import FoundationEssentials

/// Turning what a probe gave for the device-authentication challenge into a verdict, and into
/// files for a bug report.
enum DeviceAuthCheck {
    /// The verdict on `result`'s answer at `time`; nil when the channel never opened (the
    /// result's error says why). A channel that opened without an answer is `noResponse`.
    static func verdict(_ result: ReceiverProbeResult, by verifier: DeviceAuthVerifier, at time: Date)
        -> DeviceAuthVerdict?
    {
        if let evidence = result.deviceAuth { return evidence.verdict(by: verifier, at: time) }
        guard result.tls != nil else { return nil }
        return .noResponse("the channel ended before an answer to the device-authentication challenge")
    }

    /// Writes `result`'s answer and TLS certificate into `directory` (made when missing) as
    /// `HOST_PORT.auth-response.bin` and `HOST_PORT.tls-certificate.der`; nil when it gave
    /// neither.
    ///
    /// - Throws: ``CommandFailure`` (73 for a path that is not a regular file, 74 otherwise).
    static func save(_ result: ReceiverProbeResult, in directory: String) throws(CommandFailure)
        -> DeviceAuthReport.SavedFiles?
    {
        guard let evidence = result.deviceAuth, !evidence.tlsCertificate.isEmpty else { return nil }
        let stem = directory + "/" + fileStem(ReceiverEndpoint(host: result.host, port: result.port))
        let certificate = stem + ".tls-certificate.der"
        try write(evidence.tlsCertificate, to: certificate)
        var response: String?
        if let bytes = evidence.response {
            response = stem + ".auth-response.bin"
            try write(bytes, to: stem + ".auth-response.bin")
        }
        return DeviceAuthReport.SavedFiles(response: response, tlsCertificate: certificate)
    }

    /// `192.168.1.20_8009`, `fe80__1_8009`: the endpoint with every byte but letters, digits,
    /// dots and dashes made `_`, at most 200 characters.
    static func fileStem(_ endpoint: ReceiverEndpoint) -> String {
        let safe = endpoint.host.unicodeScalars.map { scalar -> Character in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "." || scalar == "-")
                ? Character(scalar) : "_"
        }
        var stem = String(safe.prefix(200))
        if stem.isEmpty || stem.hasPrefix(".") { stem = "_" + stem }
        return "\(stem)_\(endpoint.port)"
    }

    private static func write(_ bytes: [UInt8], to path: String) throws(CommandFailure) {
        do {
            try AtomicFile.write(bytes, to: path, createDirectories: true)
        } catch {
            throw CommandFailure(message: error.description, exitCode: error.isRefusal ? .cannotCreate : .ioError)
        }
    }
}
