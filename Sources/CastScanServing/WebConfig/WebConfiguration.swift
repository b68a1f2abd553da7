/// The web configuration file Prometheus' exporters share (`--web-config FILE`, the format of
/// Prometheus' exporter-toolkit, read as its version 0.8.2 reads it, the one Debian 12's
/// `promtool check web-config` checks with): TLS, basic-auth users and extra response headers.
/// A file `promtool` refuses is refused, for the same reason.
public struct WebConfiguration: Sendable, Hashable {
    /// `tls_server_config`: the server's certificate and key, and what it asks of clients.
    public struct TLS: Sendable, Hashable {
        /// What a client must show (`client_auth_type`), by exporter-toolkit's names.
        public enum ClientAuth: String, Sendable, Hashable, CaseIterable {
            case noClientCert = "NoClientCert"
            case requestClientCert = "RequestClientCert"
            case requireAnyClientCert = "RequireAnyClientCert"
            case verifyClientCertIfGiven = "VerifyClientCertIfGiven"
            case requireAndVerifyClientCert = "RequireAndVerifyClientCert"
        }

        /// A protocol version (`min_version`, `max_version`).
        public enum Version: String, Sendable, Hashable, CaseIterable, Comparable {
            case tls10 = "TLS10"
            case tls11 = "TLS11"
            case tls12 = "TLS12"
            case tls13 = "TLS13"

            public static func < (lhs: Version, rhs: Version) -> Bool {
                allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
            }
        }

        /// The certificate (chain) file, PEM; a relative path is taken from the file's directory.
        public var certificateFile: String
        /// The private key file, PEM.
        public var keyFile: String
        public var clientAuth: ClientAuth
        /// The CAs a client certificate is verified against (PEM); nil for none.
        public var clientCAFile: String?
        public var minimumVersion: Version
        public var maximumVersion: Version
        /// The TLS 1.2 cipher suites allowed, by their IANA names; empty: the library's defaults.
        public var cipherSuites: [String]
        /// The key-exchange groups, by Go's names (`CurveP256`, `X25519`); empty: the defaults.
        public var curves: [String]
        public var preferServerCipherSuites: Bool
    }

    /// TLS; nil when the file asks for none (plain HTTP).
    public var tls: TLS?
    /// `http_server_config.http2` (read and kept; this server speaks HTTP/1.1).
    public var http2: Bool
    /// `http_server_config.headers`: added to every answer, in name order.
    public var headers: [(name: String, value: String)] {
        headerValues.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
    var headerValues: [String: String]
    /// `basic_auth_users`: each user's bcrypt hash; empty: no login asked.
    public var users: [String: String]

    /// A configuration of plain HTTP with no login and no header: what serving without a file is.
    public init() {
        tls = nil
        http2 = true
        headerValues = [:]
        users = [:]
    }

    /// The files the configuration names (certificate, key, client CAs), resolved.
    public var files: [String] {
        guard let tls else { return [] }
        return [tls.certificateFile, tls.keyFile] + (tls.clientCAFile.map { [$0] } ?? [])
    }

    /// The Go cipher suite names exporter-toolkit 0.8.2 accepts (Go 1.19's `tls.CipherSuites()`).
    public static let cipherSuiteNames: [String] = [
        "TLS_RSA_WITH_AES_128_CBC_SHA", "TLS_RSA_WITH_AES_256_CBC_SHA", "TLS_RSA_WITH_AES_128_GCM_SHA256",
        "TLS_RSA_WITH_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384",
        "TLS_CHACHA20_POLY1305_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
        "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
        "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
        "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
        "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
        "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
    ]
    /// The curve names it accepts.
    public static let curveNames = ["CurveP256", "CurveP384", "CurveP521", "X25519"]
    /// The headers a file may set, and the values each may take (nil: any).
    public static let allowedHeaders: [String: [String]?] = [
        "Strict-Transport-Security": nil, "X-Content-Type-Options": ["nosniff"],
        "X-Frame-Options": ["deny", "sameorigin"], "X-XSS-Protection": nil, "Content-Security-Policy": nil,
    ]

    public static func == (lhs: WebConfiguration, rhs: WebConfiguration) -> Bool {
        lhs.tls == rhs.tls && lhs.http2 == rhs.http2 && lhs.headerValues == rhs.headerValues && lhs.users == rhs.users
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(tls)
        hasher.combine(http2)
        hasher.combine(headerValues)
        hasher.combine(users)
    }
}

/// Why a web configuration file was refused: one line, naming the file's line where it can.
public struct WebConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
