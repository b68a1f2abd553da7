/// Decodes a web configuration's YAML strictly, as Go's `yaml.UnmarshalStrict` into
/// exporter-toolkit's types does: a field it does not know, or one given twice, is refused;
/// a text field takes any scalar (null as empty), a flag YAML 1.1's booleans.
struct Reader {
    /// The configuration file's directory, which relative paths are taken from.
    let directory: String
    /// `client_auth_type` as written: checked after the files, as exporter-toolkit does.
    private(set) var clientAuthText = ""

    init(directory: String) { self.directory = directory }

    mutating func configuration(_ root: YAMLNode?) throws(WebConfigurationError) -> WebConfiguration {
        var configuration = WebConfiguration()
        guard let root else { return configuration }
        for (name, value) in try fields(
            root, of: "the file", allowed: ["tls_server_config", "http_server_config", "basic_auth_users"])
        {
            switch name {
            case "tls_server_config": configuration.tls = try tls(value)
            case "http_server_config":
                for (field, setting) in try fields(value, of: "http_server_config", allowed: ["http2", "headers"]) {
                    if field == "http2" {
                        if let flag = try bool(setting, "http_server_config.http2") { configuration.http2 = flag }
                    } else {
                        configuration.headerValues = try map(setting, "http_server_config.headers")
                    }
                }
            default: configuration.users = try map(value, "basic_auth_users")
            }
        }
        return configuration
    }

    /// The TLS settings; nil when none of the certificate, key, client authentication and
    /// client CA is given (the rest alone does not turn TLS on).
    private mutating func tls(_ node: YAMLNode) throws(WebConfigurationError) -> WebConfiguration.TLS? {
        var certificate = "", key = "", clientAuth = "", clientCA = ""
        var minimum = WebConfiguration.TLS.Version.tls12, maximum = WebConfiguration.TLS.Version.tls13
        var ciphers: [String] = [], curves: [String] = [], preferServer = true
        let allowed: Set<String> = [
            "cert_file", "key_file", "client_auth_type", "client_ca_file", "cipher_suites", "curve_preferences",
            "min_version", "max_version", "prefer_server_cipher_suites",
        ]
        for (field, value) in try fields(node, of: "tls_server_config", allowed: allowed) {
            let name = "tls_server_config." + field
            switch field {
            case "cert_file": certificate = try text(value, name)
            case "key_file": key = try text(value, name)
            case "client_auth_type": clientAuth = try text(value, name)
            case "client_ca_file": clientCA = try text(value, name)
            case "min_version": minimum = try version(value, name) ?? minimum
            case "max_version": maximum = try version(value, name) ?? maximum
            case "cipher_suites":
                ciphers = try list(value, name) { text throws(WebConfigurationError) in
                    guard WebConfiguration.cipherSuiteNames.contains(text) else {
                        throw WebConfigurationError("line \(value.line): \(name): unknown cipher suite \(quoted(text))")
                    }
                    return text
                }
            case "curve_preferences":
                curves = try list(value, name) { text throws(WebConfigurationError) in
                    guard WebConfiguration.curveNames.contains(text) else {
                        throw WebConfigurationError("line \(value.line): \(name): unknown curve \(quoted(text))")
                    }
                    return text
                }
            default: preferServer = try bool(value, name) ?? preferServer
            }
        }
        clientAuthText = clientAuth
        guard !certificate.isEmpty || !key.isEmpty || !clientAuth.isEmpty || !clientCA.isEmpty else { return nil }
        return WebConfiguration.TLS(
            certificateFile: WebConfiguration.join(directory, certificate),
            keyFile: WebConfiguration.join(directory, key),
            clientAuth: WebConfiguration.TLS.clientAuth(clientAuth) ?? .noClientCert,
            clientCAFile: clientCA.isEmpty ? nil : WebConfiguration.join(directory, clientCA), minimumVersion: minimum,
            maximumVersion: maximum, cipherSuites: ciphers, curves: curves, preferServerCipherSuites: preferServer)
    }

    /// A mapping's fields in order; a null is no field. Refuses an unknown or repeated field.
    private func fields(_ node: YAMLNode, of owner: String, allowed: Set<String>) throws(WebConfigurationError)
        -> [(String, YAMLNode)]
    {
        if node.isNull { return [] }
        guard case .mapping(let pairs, _) = node else {
            throw WebConfigurationError("line \(node.line): \(owner) must be a mapping, not \(node.kindName)")
        }
        var seen: Set<String> = []
        var result: [(String, YAMLNode)] = []
        for pair in pairs {
            guard case .scalar(let name, _, let line) = pair.key else {
                throw WebConfigurationError("line \(pair.key.line): a field name in \(owner) must be a scalar")
            }
            guard allowed.contains(name) else {
                throw WebConfigurationError("line \(line): \(owner) has no field \(quoted(name))")
            }
            guard seen.insert(name).inserted else {
                throw WebConfigurationError("line \(line): \(owner) sets \(quoted(name)) twice")
            }
            result.append((name, pair.value))
        }
        return result
    }

    /// A text value: any scalar, null as empty.
    private func text(_ node: YAMLNode, _ name: String) throws(WebConfigurationError) -> String {
        if node.isNull { return "" }
        guard case .scalar(let text, _, _) = node else {
            throw WebConfigurationError("line \(node.line): \(name) must be a scalar, not \(node.kindName)")
        }
        return text
    }

    /// A YAML 1.1 boolean; nil for null (the default stays).
    private func bool(_ node: YAMLNode, _ name: String) throws(WebConfigurationError) -> Bool? {
        if node.isNull { return nil }
        if case .scalar(let text, true, _) = node {
            if ["y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"].contains(text) { return true }
            if ["n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"].contains(text) {
                return false
            }
        }
        throw WebConfigurationError("line \(node.line): \(name) must be true or false")
    }

    /// A TLS version by its name; nil for null.
    private func version(_ node: YAMLNode, _ name: String) throws(WebConfigurationError) -> WebConfiguration.TLS
        .Version?
    {
        if node.isNull { return nil }
        let value = try text(node, name)
        guard let version = WebConfiguration.TLS.Version(rawValue: value) else {
            throw WebConfigurationError(
                "line \(node.line): \(name): unknown TLS version \(quoted(value)) (TLS10, TLS11, TLS12 or TLS13)")
        }
        return version
    }

    /// A list of scalars, each taken by `element`; null is empty.
    private func list(_ node: YAMLNode, _ name: String, _ element: (String) throws(WebConfigurationError) -> String)
        throws(WebConfigurationError) -> [String]
    {
        if node.isNull { return [] }
        guard case .sequence(let items, _) = node else {
            throw WebConfigurationError("line \(node.line): \(name) must be a list, not \(node.kindName)")
        }
        var result: [String] = []
        for item in items { result.append(try element(try text(item, name))) }
        return result
    }

    /// A mapping of text to text; null is empty. Refuses a key given twice.
    private func map(_ node: YAMLNode, _ name: String) throws(WebConfigurationError) -> [String: String] {
        if node.isNull { return [:] }
        guard case .mapping(let pairs, _) = node else {
            throw WebConfigurationError("line \(node.line): \(name) must be a mapping, not \(node.kindName)")
        }
        var result: [String: String] = [:]
        for pair in pairs {
            let key = try text(pair.key, name)
            guard result[key] == nil else {
                throw WebConfigurationError("line \(pair.key.line): \(name) has \(quoted(key)) twice")
            }
            result[key] = try text(pair.value, name + "." + key)
        }
        return result
    }
}
