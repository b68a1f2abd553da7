extension SenderOptions {
    static let permission = OptionDeclaration.value(
        "permission", valueName: "STATE",
        allowedValues: ["granted", "denied", "undetermined"],
        help:
            "the user's answer to the local-network prompt (implies discovery ran before; default: from the state file)"
    )
    static let disableAutostart = OptionDeclaration.flag("disable-autostart", help: "set disableDiscoveryAutostart")
    static let noFirstTap = OptionDeclaration.flag(
        "no-first-tap", help: "clear startDiscoveryAfterFirstTapOnCastButton")
    static let tap = OptionDeclaration.flag(
        "tap", help: "simulate a tap on the Cast button (and dismissing the interstitial)")
    static let infoPlist = OptionDeclaration.value(
        "plist", valueName: "FILE",
        help: "the app's Info.plist: browses for types missing from NSBonjourServices fail, the prompt shows its text")
    static let appDialogs = OptionDeclaration.flag(
        "app-dialogs",
        help: "the app presents its own local-network and cast-state dialogs (GCKUICastButtonDelegate, SDK 4.6.0+)")
    static let state = OptionDeclaration.value(
        "state", valueName: "FILE",
        help: "the sender's persistent state (default $XDG_STATE_HOME/cast-scan/sender.json)")

    /// Every option of the simulated sender, in the order help lists them; `--ios`, `--sdk`
    /// and `--xcode` are the project's.
    static let declarations = [
        SenderProjectOptions.ios, SenderProjectOptions.sdk, SenderProjectOptions.xcode, infoPlist, appDialogs,
        permission,
        disableAutostart, noFirstTap, tap, state,
    ]
}
