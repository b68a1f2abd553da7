import CastScanServing

/// How `cast-scan serve` serves, from the command line.
struct ServeOptions: Sendable {
    static let listen = OptionDeclaration.value(
        "listen", valueName: "ADDR:PORT", repeatable: true,
        help:
            "where to answer HTTP (default 127.0.0.1:9464, loopback only; [::]:9464 opens it to the network); give several to listen on each. Under systemd socket activation (LISTEN_FDS) the sockets passed instead"
    )
    static let forgetAfter = OptionDeclaration.value(
        "forget-after", valueName: "SECONDS",
        help:
            "keep a device that went as cast_device_up 0 for this long, then end its series (default 600; 0 ends it at once)"
    )
    static let maxDevices = OptionDeclaration.value(
        "max-devices", valueName: "N",
        help: "per-device series and page rows for at most N devices, the rest counted (default 4096)")
    static let maxConnections = OptionDeclaration.value(
        "max-connections", valueName: "N",
        help: "HTTP connections open at once, 1 to 10000 (default 64); more wait until one closes")

    static let probeAllow = OptionDeclaration.value(
        "probe-allow", valueName: "CIDR", repeatable: true,
        help:
            "/probe may also ask receivers in this address range (e.g. 10.20.0.0/16), listed or not; without it only the listed devices' addresses"
    )

    static let webConfig = OptionDeclaration.value(
        "web-config", valueName: "FILE",
        help:
            "the web configuration file Prometheus' exporters share (exporter-toolkit's format): basic_auth_users (bcrypt) and http_server_config.headers; read again when it changes"
    )
    static let checkConfig = OptionDeclaration.flag(
        "check-config",
        help:
            "read everything serve would start with (the options, --web-config and the files it names), then exit: 0, or 78 with the reason"
    )

    static let declarations = [listen, forgetAfter, maxDevices, maxConnections, probeAllow, webConfig, checkConfig]

    /// The addresses to listen on, each once, in the order given (the default when none is).
    var listen: [HTTPListenAddress]
    var forgetAfter: Duration
    var maxDevices: Int
    var maxConnections: Int
    /// `--probe-allow`: ranges `/probe` may ask besides the listed devices.
    var probeAllowed: [AddressRange]

    init(_ arguments: ParsedArguments) throws(UsageError) {
        listen = []
        for text in arguments.values(of: Self.listen) {
            let address: HTTPListenAddress
            do throws(HTTPServerError) {
                address = try HTTPListenAddress(parsing: text)
            } catch {
                throw .invalidValue(
                    option: Self.listen.displayName, value: text,
                    expected: "ADDRESS:PORT with a literal address, e.g. 127.0.0.1:9464 or [::]:9464")
            }
            guard !listen.contains(address) else { throw .repeatedOption("\(Self.listen.displayName) \(text)") }
            listen.append(address)
        }
        if listen.isEmpty { listen = [.loopbackDefault] }
        probeAllowed = []
        for text in arguments.values(of: Self.probeAllow) {
            guard let range = AddressRange(text) else {
                throw .invalidValue(
                    option: Self.probeAllow.displayName, value: text,
                    expected: "an address range ADDRESS/LENGTH, e.g. 10.20.0.0/16 or fd00::/8")
            }
            probeAllowed.append(range)
        }
        let seconds =
            try arguments.value(of: Self.forgetAfter, expected: "a whole number of seconds from 0 to 31536000") {
                Int($0).flatMap { (0...31_536_000).contains($0) ? $0 : nil }
            } ?? 600
        forgetAfter = .seconds(seconds)
        maxDevices =
            try arguments.value(of: Self.maxDevices, expected: "a whole number from 1 to 1000000") {
                Int($0).flatMap { (1...1_000_000).contains($0) ? $0 : nil }
            } ?? 4096
        maxConnections =
            try arguments.value(of: Self.maxConnections, expected: "a whole number from 1 to 10000") {
                Int($0).flatMap { (1...10_000).contains($0) ? $0 : nil }
            } ?? 64
    }
}
