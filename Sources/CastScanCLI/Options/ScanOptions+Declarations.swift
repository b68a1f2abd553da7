import CastDiscoveryBackends

extension ScanOptions {
    static let appID = OptionDeclaration.value(
        "app-id", valueName: "ID", repeatable: true,
        help: "only devices that can run this receiver app, e.g. CC1AD845")
    static let namespace = OptionDeclaration.value(
        "namespace", valueName: "NS", repeatable: true,
        help: "only devices that handle this message namespace (urn:x-cast:...)")
    static let interface = OptionDeclaration.value(
        "interface", short: "i", valueName: "NAME",
        help: "only addresses seen on this network interface")
    static let ipv4 = OptionDeclaration.flag(nil, short: "4", help: "only IPv4 addresses")
    static let ipv6 = OptionDeclaration.flag(nil, short: "6", help: "only IPv6 addresses")
    static let timeout = OptionDeclaration.value(
        "timeout", short: "t", valueName: "SECONDS",
        help: "longest a scan may take (default 5); it ends sooner once complete")
    static let replay = OptionDeclaration.value(
        "replay", valueName: "FILE",
        help: "play a recorded event file instead of asking the network (demos, tests)")
    static let backend = OptionDeclaration.value(
        "backend", valueName: "NAME",
        allowedValues: BackendChoice.allCases.map(\.rawValue),
        help:
            "auto (default: the built-in mDNS querier, beside avahi-daemon's cache when the daemon answers), avahi, mdns, dnssd (the dns_sd API), or hosts (only --host)"
    )
    static let host = OptionDeclaration.value(
        "host", valueName: "ADDRESS", repeatable: true,
        help: "also ask this device directly (an IPv4 or IPv6 address or a host name), for networks that drop multicast"
    )
    static let hostInterval = OptionDeclaration.value(
        "host-interval", valueName: "SECONDS",
        help: "how often watch asks the --host devices again (default 30)")

    /// Every scan option, in the order help lists them (the list command and watch take them all).
    static let declarations = [appID, namespace, interface, ipv4, ipv6, timeout, backend, host, hostInterval, replay]
}
