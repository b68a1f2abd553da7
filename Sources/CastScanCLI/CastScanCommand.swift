import CastDiscoveryBackends

/// The declarations of `cast-scan` and its subcommands: every option, for parsing and help.
enum CastScanCommand {
    // Scan options (the list command and watch).
    static let appID = OptionDeclaration.value("app-id", valueName: "ID", repeatable: true,
        help: "only devices that can run this receiver app, e.g. CC1AD845")
    static let namespace = OptionDeclaration.value("namespace", valueName: "NS", repeatable: true,
        help: "only devices that handle this message namespace (urn:x-cast:...)")
    static let interface = OptionDeclaration.value("interface", short: "i", valueName: "NAME",
        help: "only addresses seen on this network interface")
    static let ipv4 = OptionDeclaration.flag(nil, short: "4", help: "only IPv4 addresses")
    static let ipv6 = OptionDeclaration.flag(nil, short: "6", help: "only IPv6 addresses")
    static let timeout = OptionDeclaration.value("timeout", short: "t", valueName: "SECONDS",
        help: "longest a scan may take (default 5); it ends sooner once complete")
    static let json = OptionDeclaration.flag("json", help: "print JSON (schema in the README) instead of a table")
    static let failIfEmpty = OptionDeclaration.flag("fail-if-empty", help: "exit 1 when no device is listed")
    static let replay = OptionDeclaration.value("replay", valueName: "FILE",
        help: "play a recorded event file instead of asking the network (demos, tests)")
    static let backend = OptionDeclaration.value("backend", valueName: "NAME",
        allowedValues: BackendChoice.allCases.map(\.rawValue),
        help: "auto (default: avahi-daemon if it answers, else the built-in mDNS querier), avahi, mdns, dnssd (the dns_sd API), or hosts (only --host)")
    static let host = OptionDeclaration.value("host", valueName: "ADDRESS", repeatable: true,
        help: "also ask this device directly (an IPv4 or IPv6 address or a host name), for networks that drop multicast (repeatable)")
    static let hostInterval = OptionDeclaration.value("host-interval", valueName: "SECONDS",
        help: "how often watch asks the --host devices again (default 30)")

    // Simulated sender app.
    static let ios = OptionDeclaration.value("ios", valueName: "VERSION",
        help: "simulate an iOS sender at this version (default: a Linux sender, no permission)")
    static let sdk = OptionDeclaration.value("sdk", valueName: "VERSION", help: "Cast SDK version of the sender (default 4.8.3)")
    static let permission = OptionDeclaration.value("permission", valueName: "STATE",
        allowedValues: ["granted", "denied", "undetermined"],
        help: "the user's answer to the local-network prompt (implies discovery ran before; default: from the state file)")
    static let disableAutostart = OptionDeclaration.flag("disable-autostart", help: "set disableDiscoveryAutostart")
    static let noFirstTap = OptionDeclaration.flag("no-first-tap", help: "clear startDiscoveryAfterFirstTapOnCastButton")
    static let tap = OptionDeclaration.flag("tap", help: "simulate a tap on the Cast button (and dismissing the interstitial)")
    static let senderPlist = OptionDeclaration.value("plist", valueName: "FILE",
        help: "the app's Info.plist: browses for types missing from NSBonjourServices fail, the prompt shows its text")
    static let appDialogs = OptionDeclaration.flag("app-dialogs",
        help: "the app presents its own local-network and cast-state dialogs (GCKUICastButtonDelegate, SDK 4.6.0+)")
    static let state = OptionDeclaration.value("state", valueName: "FILE",
        help: "the sender's persistent state (default $XDG_STATE_HOME/cast-scan/sender.json)")

    // Subcommand options. Subcommands take only their own options (none inherit the list's).
    static let jsonLines = OptionDeclaration.flag("jsonl", help: "one JSON object per event and line")
    static let xcode = OptionDeclaration.value("xcode", valueName: "VERSION", help: "Xcode version the app is built with")
    static let noBluetoothVariant = OptionDeclaration.flag("no-bluetooth-variant",
        help: "the app uses google-cast-sdk-no-bluetooth")
    static let plistFile = PositionalDeclaration("FILE", help: "the app's Info.plist (XML or binary)")
    static let scriptFile = PositionalDeclaration("SCRIPT", help: "a sender scenario file (Fixtures/scenarios/*.json)")

    static let scanOptions = [appID, namespace, interface, ipv4, ipv6, timeout, backend, host, hostInterval, replay]
    static let senderOptions = [ios, sdk, xcode, senderPlist, appDialogs, permission, disableAutostart, noFirstTap, tap, state]

    static let watch = CommandDeclaration(
        name: "watch", abstract: "Show Cast devices as they come, change and go, until interrupted.",
        options: scanOptions + [jsonLines], inheritsOptions: false)
    static let plistCheck = CommandDeclaration(
        name: "check", abstract: "Check an iOS app's Info.plist for what Cast discovery needs.",
        discussion: "Exit status 2 when a finding is an error.",
        options: [appID, sdk, ios, xcode, noBluetoothVariant, json], positionals: [plistFile])
    static let plistSnippet = CommandDeclaration(
        name: "snippet", abstract: "Print the Info.plist keys Cast discovery needs, as XML.",
        options: [appID, sdk, ios, noBluetoothVariant])
    static let plist = CommandDeclaration(
        name: "plist", abstract: "Check or write an iOS app's Info.plist entries.", subcommands: [plistCheck, plistSnippet], inheritsOptions: false)
    static let advise = CommandDeclaration(
        name: "advise", abstract: "Advice for a Cast SDK, Xcode and deployment target combination.",
        options: [sdk, xcode, ios, noBluetoothVariant, json], inheritsOptions: false)
    static let simulate = CommandDeclaration(
        name: "simulate", abstract: "Run a sender scenario script and print each step.",
        options: [json, xcode], positionals: [scriptFile], inheritsOptions: false)
    static let doctor = CommandDeclaration(
        name: "doctor", abstract: "Check avahi-daemon, D-Bus and multicast interfaces, and say what to fix.",
        options: [json], inheritsOptions: false)

    static let root = CommandDeclaration(
        name: "cast-scan",
        abstract: "List the Google Cast devices on the network beside what a sender app would see.",
        discussion: """
            Exit status: 0 ok, 1 no devices with --fail-if-empty, 2 findings with errors (plist check), \
            64 usage error, 65 bad input file, 69 the chosen backend unavailable (--backend avahi \
            without avahi-daemon), 73 a path to write is not a regular file, 74 standard output \
            cannot be written.
            """,
        options: scanOptions + senderOptions + [json, failIfEmpty],
        subcommands: [watch, plist, advise, simulate, doctor])
}
