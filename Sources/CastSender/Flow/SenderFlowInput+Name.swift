extension SenderFlowInput {
    /// The name of each kind of input, as scenario files write it: listed once, so a switch over
    /// it is checked by the compiler for every input.
    public enum Name: String, Sendable, Hashable, CaseIterable {
        case appLaunched, relaunched, enteredBackground, enteredForeground, castButtonTapped
        case interstitialDismissed, promptAnswered, settingsChanged, startDiscoveryRequested
        case stopDiscoveryRequested, dialogDismissed, goToSettingsTapped, wifiChanged
        case deviceListChanged, deviceSelected, sessionStarted, sessionEnded, locationPermissionChanged

        /// The arguments a scenario step of this input takes.
        public var arguments: [String] {
            switch self {
            case .promptAnswered, .settingsChanged, .locationPermissionChanged: ["granted"]
            case .wifiChanged: ["connected"]
            case .deviceListChanged: ["devices", "replay"]
            case .deviceSelected: ["device"]
            case .appLaunched, .relaunched, .enteredBackground, .enteredForeground, .castButtonTapped,
                .interstitialDismissed, .startDiscoveryRequested, .stopDiscoveryRequested, .dialogDismissed,
                .goToSettingsTapped, .sessionStarted, .sessionEnded:
                []
            }
        }
    }

    /// Which kind of input this is.
    public var kind: Name {
        switch self {
        case .appLaunched: .appLaunched
        case .relaunched: .relaunched
        case .enteredBackground: .enteredBackground
        case .enteredForeground: .enteredForeground
        case .castButtonTapped: .castButtonTapped
        case .interstitialDismissed: .interstitialDismissed
        case .promptAnswered: .promptAnswered
        case .settingsChanged: .settingsChanged
        case .startDiscoveryRequested: .startDiscoveryRequested
        case .stopDiscoveryRequested: .stopDiscoveryRequested
        case .dialogDismissed: .dialogDismissed
        case .goToSettingsTapped: .goToSettingsTapped
        case .wifiChanged: .wifiChanged
        case .deviceListChanged: .deviceListChanged
        case .deviceSelected: .deviceSelected
        case .sessionStarted: .sessionStarted
        case .sessionEnded: .sessionEnded
        case .locationPermissionChanged: .locationPermissionChanged
        }
    }
}
