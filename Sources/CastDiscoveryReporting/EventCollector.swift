import CastDiscovery
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An HTTP collector of event reports: the URL batches are POSTed to and, when it needs them,
/// the credentials for HTTP basic authentication.
///
/// Only `http` and `https` URLs with a host (a name, an IPv4 address or a bracketed IPv6
/// address) and, if any, a port from 1 to 65535 are accepted, and none with a user name or
/// password in it: those show in process lists and shell histories. Credentials come from the
/// caller (`cast-scan` reads them from ``credentialsVariable``): UTF-8 text on one line.
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
    ///   https URL with a host and a valid port; ``EventReportError/credentialsInURL(url:)`` for
    ///   one with a user name or password; ``EventReportError/invalidCredentials(reason:)`` for
    ///   credentials that are empty, hold a control character or are not UTF-8.
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
        if let reason = Self.authorityProblem(authority) { throw .invalidCollector(url: shown, reason: reason) }
        if let credentials, let reason = Self.credentialsProblem(credentials) {
            throw .invalidCredentials(reason: reason)
        }
        self.url = url
        self.credentials = credentials
    }

    /// What is wrong with a URL's authority (`host`, `host:port`, `[v6]:port`); nil when nothing.
    private static func authorityProblem(_ authority: Substring) -> String? {
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return "an IPv6 address without its closing ']'" }
            let literal = authority[authority.index(after: authority.startIndex)..<close]
            guard !literal.isEmpty else { return "no host" }
            guard isIPv6Literal(literal) else { return "'[\(literal)]' is not an IPv6 address" }
            let rest = authority[authority.index(after: close)...]
            if rest.first == ":" {
                port = rest.dropFirst()
            } else if !rest.isEmpty {
                return "'\(rest)' after the IPv6 address, where only ':PORT' may follow"
            }
        } else {
            let host = authority.prefix { $0 != ":" }
            guard !host.isEmpty else { return "no host" }
            guard host.unicodeScalars.allSatisfy({ isHostScalar($0) }) else {
                return "the host '\(host)' holds characters other than letters, digits, '-', '.', '_' and '~'"
            }
            if host.endIndex < authority.endIndex { port = authority[authority.index(after: host.endIndex)...] }
        }
        if let port {
            guard !port.isEmpty, port.count <= 5, port.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }),
                let number = Int(port), (1...65535).contains(number)
            else { return "the port '\(port)' is not a number from 1 to 65535" }
        }
        return nil
    }

    private static func isHostScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", ".", "_", "~": true
        default: false
        }
    }

    /// An IPv6 address, with a zone (`fe80::1%25eth0`) or without.
    private static func isIPv6Literal(_ literal: Substring) -> Bool {
        var address = literal
        if let percent = literal.firstIndex(of: "%") {
            let zone = literal[percent...]
            guard zone.hasPrefix("%25"), zone.count > 3,
                zone.dropFirst(3).unicodeScalars.allSatisfy({ isHostScalar($0) })
            else {
                return false
            }
            address = literal[..<percent]
        }
        var bytes = in6_addr()
        return inet_pton(AF_INET6, String(address), &bytes) == 1
    }

    /// What is wrong with credentials (`user:password`); nil when nothing.
    private static func credentialsProblem(_ credentials: String) -> String? {
        if credentials.isEmpty { return "it is empty" }
        if credentials.unicodeScalars.contains(where: { RawPath.isEscapedByte($0) != nil }) {
            return "it is not UTF-8 text"
        }
        if credentials.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) { return "it holds a line break" }
        if credentials.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
            return "it holds a control character"
        }
        return nil
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
