/// A choice the sender model makes where no source says what the SDK does: named in the
/// ``SenderFlowStep`` where it acts (`inferred` in JSON), so that it is never read as fact.
public enum SenderInference: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The dialog after a denial: the sources describe one "No devices available" dialog whose
    /// hints include turning Local Network Access on; the model shows a separate variant with a
    /// "Go to Settings" button (the reference's section 6 describes one; Google's pages do not).
    case deniedDialogWithSettingsButton
    /// SDK 4.8.0/4.8.1: the threads say the first tap does nothing; what the next tap does is
    /// not said. The model lets the next tap behave as on other versions.
    case firstTapBugNextTapWorks
    /// Leaving Wi-Fi during a session: the SDK tries to reconnect; the model shows the session
    /// connecting until Wi-Fi returns, then connected again.
    case sessionReconnectsAfterWiFi
    /// The SDK's local network permission dialog (shown by a tap before discovery ever ran):
    /// its dismissal does not start discovery when the app disabled autostart; the app must.
    case permissionDialogLeavesDiscoveryToApp
    /// A Cast SDK before 4.4.4 built with the iOS 13 SDK: the Cast button "may not appear"
    /// without location permission; the model hides it until location is allowed.
    case castButtonHiddenWithoutLocation
    /// The text of the system's local network prompt: the app's NSLocalNetworkUsageDescription
    /// under a title of the model's wording (iOS's exact wording is not in the sources).
    case localNetworkPromptWording

    /// One sentence for people.
    public var summary: String {
        switch self {
        case .deniedDialogWithSettingsButton:
            "the denied variant of the no-devices dialog, with a Go to Settings button, is the model's choice"
        case .firstTapBugNextTapWorks:
            "SDK 4.8.0/4.8.1: after the first tap did nothing, the model lets the next tap work"
        case .sessionReconnectsAfterWiFi:
            "off Wi-Fi the model keeps the session connecting (the SDK tries to reconnect), connected when Wi-Fi returns"
        case .permissionDialogLeavesDiscoveryToApp:
            "the model's choice: with autostart disabled, dismissing the SDK's permission dialog starts nothing"
        case .castButtonHiddenWithoutLocation:
            "SDK before 4.4.4 built with the iOS 13 SDK: 'may not appear' without location, modelled as hidden"
        case .localNetworkPromptWording:
            "the prompt's title is the model's wording; its message is the app's NSLocalNetworkUsageDescription"
        }
    }

    /// The case name, as in JSON.
    public var description: String { rawValue }
}
