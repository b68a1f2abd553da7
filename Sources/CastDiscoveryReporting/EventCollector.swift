import CastDiscovery

/// An HTTP collector of event reports: the URL batches are POSTed to and, when it needs them,
/// the credentials for HTTP basic authentication.
///
/// Only `http` and `https` URLs with a host are accepted, and none with a user name or password
/// in it: those show in process lists and shell histories. Credentials come from the caller
/// (`cast-scan` reads them from ``credentialsVariable``).
public struct EventCollector: Sendable, Hashable {
    /// The environment variable `cast-scan` reads the collector's credentials from, as
    /// `user:password`.
    public static let credentialsVariable = "CAST_SCAN_REPORT_CREDENTIALS"
    /// The longest URL accepted.
    public static let maximumURLLength = 2048

    /// The URL, as given.
    public let url: String
    /// `user:password`, when the collector needs them.
    public let credentials: String?

    /// Checks and keeps a collector URL and its credentials.
    ///
    /// - Throws: ``EventReportError/invalidCollector(url:reason:)`` for anything but an http or
    ///   https URL with a host; ``EventReportError/credentialsInURL(url:)`` for one with a user
    ///   name or password.
    public init(url: String, credentials: String? = nil) throws(EventReportError) {
        let shown = SafeText.quoted(url, limit: 200)
        guard url.utf8.count <= Self.maximumURLLength else {
            throw .invalidCollector(url: shown, reason: "longer than \(Self.maximumURLLength) bytes")
        }
        guard url.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }) else {
            throw .invalidCollector(url: shown, reason: "spaces, control or non-ASCII characters (percent-encode them)")
        }
        let lower = url.lowercased()
        guard let scheme = ["http://", "https://"].first(where: { lower.hasPrefix($0) }) else {
            throw .invalidCollector(url: shown, reason: "only http:// and https:// URLs are supported")
        }
        let rest = url.dropFirst(scheme.count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if authority.contains("@") { throw .credentialsInURL(url: SafeText.quoted(Self.redacted(url), limit: 200)) }
        let host = authority.hasPrefix("[") ? authority.prefix { $0 != "]" } : authority.prefix { $0 != ":" }
        guard !host.isEmpty, host != "[" else { throw .invalidCollector(url: shown, reason: "no host") }
        if let credentials {
            guard !credentials.isEmpty, credentials.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
                throw .invalidCollector(url: shown, reason: "the credentials are empty or hold control characters")
            }
        }
        self.url = url
        self.credentials = credentials
    }

    /// The URL with anything before an `@` in its authority replaced, for messages.
    public static func redacted(_ url: String) -> String {
        guard let separator = url.firstRange(of: "://") else { return url }
        let rest = url[separator.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<separator.upperBound]) + "…" + String(rest[at...])
    }
}
