/// The texts of a dialog the SDK shows after a Cast button tap finds no device.
///
/// The texts follow the SDK's dialogs in meaning (reference section 6); they are not the SDK's
/// localized strings word for word.
public struct SenderDialog: Sendable, Hashable, Codable {
    /// The title.
    public var title: String
    /// The hints, one sentence each, in display order.
    public var hints: [String]
    /// The buttons, in display order.
    public var buttons: [String]

    /// Creates a dialog.
    public init(title: String, hints: [String], buttons: [String]) {
        self.title = title
        self.hints = hints
        self.buttons = buttons
    }

    /// The label of the button that opens the app's page in Settings.
    public static let goToSettingsButton = "Go to Settings"

    /// The hint about the shared Wi-Fi network.
    public static let sameWiFiHint =
        "Make sure your phone or tablet and your Cast device are connected to the same Wi-Fi network."

    /// The hint about Local Network Access (platforms with the permission).
    public static let localNetworkHint = "Make sure Local Network Access is turned on in Settings."

    /// The "No devices available" dialog; the Local Network Access hint appears only on a
    /// platform with the permission.
    public static func noDevices(platformHasPermission: Bool) -> SenderDialog {
        SenderDialog(
            title: "No devices available",
            hints: platformHasPermission ? [sameWiFiHint, localNetworkHint] : [sameWiFiHint],
            buttons: ["OK"])
    }

    /// The SDK's local network permission dialog (a tap before discovery ever ran, iOS 14+).
    public static let localNetworkPermission = SenderDialog(
        title: "Allow local network access",
        hints: [
            "To find Cast devices, this app needs access to your local network. iOS asks for it when the app first looks for devices."
        ],
        buttons: ["OK"])

    /// The system's local network prompt, with the app's NSLocalNetworkUsageDescription (or a
    /// note that the Info.plist lacks it); nil `usageDescription` and no plist: unknown text.
    public static func localNetworkPrompt(appName: String?, usageDescription: String?, plistKnown: Bool) -> SenderDialog
    {
        let name = appName.map { "\u{201C}\($0)\u{201D}" } ?? "The app"
        let message: String
        if let usageDescription, !usageDescription.isEmpty {
            message = usageDescription
        } else if plistKnown {
            message =
                "(no NSLocalNetworkUsageDescription in the Info.plist: the prompt has no explanation, and App Review requires one)"
        } else {
            message =
                "(the app's NSLocalNetworkUsageDescription: unknown without its Info.plist; give --plist, or app.plist in a scenario)"
        }
        return SenderDialog(
            title: "\(name) would like to find and connect to devices on your local network",
            hints: [message], buttons: ["Don't Allow", "Allow"])
    }

    /// The dialog shown when the local-network permission is known to be denied.
    public static let denied = SenderDialog(
        title: "No devices available",
        hints: ["To find Cast devices, turn on Local Network Access for this app in Settings."],
        buttons: [goToSettingsButton, "Cancel"])
}
