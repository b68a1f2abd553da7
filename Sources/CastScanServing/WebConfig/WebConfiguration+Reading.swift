import CastDiscovery

extension WebConfiguration {
    /// The largest configuration file read.
    public static let maximumFileSize = 1 << 20

    /// Reads the file at `path` and checks it as `promtool check web-config` does, in its
    /// order: the YAML, strictly (no unknown or repeated field; each value of its type; TLS
    /// versions, cipher suites and curves by their names); the headers (only those a file may
    /// set, with the values each may take); each user's bcrypt hash; then the TLS files: the
    /// certificate and its key, which must load and match, the client CA file, and the client
    /// authentication type. Relative paths are taken from the file's directory.
    public static func read(path: String) throws(WebConfigurationError) -> WebConfiguration {
        let bytes: [UInt8]
        do {
            bytes = Array(try BoundedFile.read(path: path, limit: maximumFileSize))
        } catch {
            throw WebConfigurationError("\(path): \(error)")
        }
        let root: YAMLNode?
        do throws(YAMLDocument.Failure) {
            root = try YAMLDocument.parse(bytes)
        } catch {
            throw WebConfigurationError("\(path): not YAML: \(error.message)")
        }
        var reader = Reader(directory: directory(of: path))
        let configuration = try reader.configuration(root)
        try configuration.checkHeaders()
        try configuration.checkUsers()
        if let tls = configuration.tls { try tls.checkFiles(clientAuthText: reader.clientAuthText) }
        return configuration
    }

    /// The directory part of `path` (`.` for a bare name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `path` taken from `directory` unless it is empty or absolute.
    static func join(_ directory: String, _ path: String) -> String {
        guard !path.isEmpty, !path.hasPrefix("/") else { return path }
        return directory == "." ? path : directory + "/" + path
    }

    /// Refuses a header a file may not set, or a value it may not take.
    func checkHeaders() throws(WebConfigurationError) {
        for (name, value) in headers {
            guard let allowed = Self.allowedHeaders[name] else {
                throw WebConfigurationError("http_server_config.headers: the header \(quoted(name)) cannot be set")
            }
            if let allowed, !allowed.contains(value) {
                throw WebConfigurationError(
                    "http_server_config.headers: \(name) must be one of \(allowed.map(quoted).joined(separator: ", ")), not \(quoted(value))"
                )
            }
        }
    }

    /// Refuses a user whose hash is not a bcrypt hash as Go's `bcrypt.Cost` reads one.
    func checkUsers() throws(WebConfigurationError) {
        for (user, hash) in users.sorted(by: { $0.key < $1.key }) {
            if let problem = BcryptHash.problem(hash) {
                throw WebConfigurationError("basic_auth_users: \(quoted(user)): \(problem)")
            }
        }
    }
}

/// Text quoted for a message, without control characters.
func quoted(_ text: String) -> String {
    "'"
        + String(
            String.UnicodeScalarView(
                text.unicodeScalars.prefix(200).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 })) + "'"
}

extension WebConfiguration.TLS {
    /// The TLS part's files, in exporter-toolkit's order: the key pair, the client CA file,
    /// then the client authentication type and whether CAs come without one.
    func checkFiles(clientAuthText: String) throws(WebConfigurationError) {
        guard !certificateFile.isEmpty else { throw WebConfigurationError("tls_server_config: cert_file is missing") }
        guard !keyFile.isEmpty else { throw WebConfigurationError("tls_server_config: key_file is missing") }
        try TLSKeyPair.check(certificateFile: certificateFile, keyFile: keyFile)
        if let clientCAFile {
            do {
                _ = try BoundedFile.read(path: clientCAFile, limit: WebConfiguration.maximumFileSize)
            } catch {
                throw WebConfigurationError("tls_server_config.client_ca_file \(clientCAFile): \(error)")
            }
        }
        guard clientAuthText.isEmpty || Self.clientAuth(clientAuthText) != nil else {
            throw WebConfigurationError(
                "tls_server_config.client_auth_type: \(quoted(clientAuthText)) is not one of \(ClientAuth.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        if clientCAFile != nil, clientAuth == .noClientCert {
            throw WebConfigurationError(
                "tls_server_config: client_ca_file is given but client_auth_type asks no client certificate")
        }
    }

    /// The type named `text` (`RequireClientCert` is an old name of `RequireAnyClientCert`).
    static func clientAuth(_ text: String) -> ClientAuth? {
        switch text {
        case "", "NoClientCert": .noClientCert
        case "RequireClientCert": .requireAnyClientCert
        default: ClientAuth(rawValue: text)
        }
    }
}
