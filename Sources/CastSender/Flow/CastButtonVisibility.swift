/// Whether the SDK's Cast button shows, and why.
///
/// Rules, in order: a custom picker has no SDK button; off Wi-Fi it is hidden; during a session
/// it shows; from SDK 4.6.0 it always shows on Wi-Fi; before 4.6.0 it shows only while devices
/// are visible.
public struct CastButtonVisibility: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Why the button shows or not.
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        /// The app uses its own picker; the SDK draws no button.
        case customPicker
        /// The device is not on Wi-Fi.
        case offWiFi
        /// A Cast session is connecting or connected.
        case sessionActive
        /// SDK 4.6.0 or later: always shown on Wi-Fi.
        case alwaysShownOnWiFi
        /// SDK before 4.6.0, and devices are visible.
        case devicesAvailable
        /// SDK before 4.6.0, and no device is visible.
        case noDevices
        /// Built with the iOS 13 SDK and a Cast SDK before 4.4.4, without location permission.
        case needsLocationPermission

        /// A few words for people.
        public var summary: String {
            switch self {
            case .customPicker: "custom picker, no SDK button"
            case .offWiFi: "not on Wi-Fi"
            case .sessionActive: "a Cast session is active"
            case .alwaysShownOnWiFi: "always shown on Wi-Fi from SDK 4.6.0"
            case .devicesAvailable: "devices available (SDK before 4.6.0)"
            case .noDevices: "no devices (SDK before 4.6.0 shows it only with devices)"
            case .needsLocationPermission:
                "no location permission (Cast SDK before 4.4.4 built with the iOS 13 SDK)"
            }
        }
    }

    /// Whether the button shows.
    public var isVisible: Bool
    /// Why.
    public var reason: Reason

    /// Creates a visibility.
    public init(isVisible: Bool, reason: Reason) {
        self.isVisible = isVisible
        self.reason = reason
    }

    private enum CodingKeys: String, CodingKey {
        case isVisible = "visible"
        case reason
    }

    /// `shown (why)` or `hidden (why)`.
    public var description: String { "\(isVisible ? "shown" : "hidden") (\(reason.summary))" }
}
