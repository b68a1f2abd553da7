import CastDiscovery
import CastDiscoveryReporting

/// Report collector URLs and credentials (`EventCollector(url:credentials:)`, what `--report`
/// and `$CAST_SCAN_REPORT_CREDENTIALS` give). The input is the URL, then optionally a NUL byte
/// and the credentials.
///
/// - Never traps; throws only `EventReportError` (of the three collector kinds), whose text
///   holds no raw control character and never the credentials or a URL's user information.
/// - `redacted(_:)` leaves nothing before an `@` in the authority; an accepted URL is its own
///   redaction, and is accepted again.
/// - Accepted credentials hold no control character and no line break.
public enum ReportURLProperties {
    static let property = Property(target: "report-url")

    public static func check(_ bytes: [UInt8]) throws(PropertyFailure) {
        let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let url = String(decoding: parts[0], as: UTF8.self)
        let credentials = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : nil
        let redacted = EventCollector.redacted(url)
        try checkRedacted(url, redacted)
        do {
            let collector = try EventCollector(url: url, credentials: credentials)
            try property.require(
                collector.url == url && collector.credentials == credentials, "the collector keeps other values")
            try property.require(redacted == url, "an accepted URL redacts to \(redacted)")
            if let credentials {
                try property.require(
                    RawControl.firstOffset(in: credentials) == nil, "accepted credentials hold a control character")
            }
            _ = try EventCollector(url: url, credentials: credentials)
        } catch let failure as PropertyFailure {
            throw failure
        } catch let error as EventReportError {
            switch error {
            case .invalidCollector, .credentialsInURL:
                // Nothing of the credentials shows: the same error without them.
                try property.require(
                    (try? EventCollector(url: url)) == nil && error == collectorError(url: url, credentials: nil),
                    "the URL's error depends on the credentials: \(error)")
            case .invalidCredentials(let reason):
                try property.require(Self.credentialReasons.contains(reason), "the credentials' error shows \(reason)")
            default:
                throw property.fail("the collector check threw \(error), not a collector error")
            }
            try property.requireNoRawControl(error.description, in: "the error")
            if case .credentialsInURL = error, let hidden = withOtherUserInformation(url) {
                // Nothing of the user information shows: the same error with other.
                try property.require(
                    collectorError(url: hidden, credentials: credentials) == error,
                    "the error shows the URL's user information: \(error), with other user information \(String(describing: collectorError(url: hidden, credentials: credentials)))"
                )
            }
        } catch {
            throw property.fail("the collector check threw \(error)")
        }
    }

    /// What `EventCollector(url:credentials:)` throws, if it does.
    private static func collectorError(url: String, credentials: String?) -> EventReportError? {
        do {
            _ = try EventCollector(url: url, credentials: credentials)
            return nil
        } catch {
            return error
        }
    }

    /// The reasons credentials are refused for (they are never shown).
    static let credentialReasons: Set = [
        "it is empty", "it is not UTF-8 text", "it holds a line break", "it holds a control character",
    ]

    /// `url` with its user information replaced by other text of the same length (`x`s, or
    /// `y`s); nil when it has none.
    private static func withOtherUserInformation(_ url: String) -> String? {
        guard let user = userInformation(url) else { return nil }
        let filler: Character = user.allSatisfy { $0 == "x" } ? "y" : "x"
        let other = String(repeating: filler, count: user.utf8.count)
        return String(url[..<user.startIndex]) + other + String(url[user.endIndex...])
    }

    /// Everything before the last `@` of the authority, when there is one.
    private static func userInformation(_ url: String) -> Substring? {
        guard let separator = url.firstRange(of: "://") else { return nil }
        let rest = url[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return nil }
        return authority[..<at]
    }

    private static func checkRedacted(_ url: String, _ redacted: String) throws(PropertyFailure) {
        guard let other = withOtherUserInformation(url) else {
            try property.require(redacted == url, "a URL with no user information redacts to \(redacted)")
            return
        }
        try property.require(
            userInformation(redacted) == "…", "\(url) redacts to \(redacted), keeping user information")
        try property.require(
            EventCollector.redacted(other) == redacted,
            "\(url) redacts to \(redacted), with other user information to \(EventCollector.redacted(other))")
    }
}
