/// What a receiver is doing, as its RECEIVER_STATUS says: the apps it runs, its volume, and
/// whether it is the TV's active input or standing by. Every field is optional: devices leave
/// out what they do not have (an idle device has no apps, a speaker no standby).
public struct ReceiverStatus: Sendable, Hashable, Codable {
    /// The apps running, the first one in front (at most ``maximumApplications``).
    public var applications: [ReceiverApplication]?
    /// The receiver's volume.
    public var volume: ReceiverVolume?
    /// Whether the receiver is the TV's active input (TVs and HDMI devices only).
    public var isActiveInput: Bool?
    /// Whether the TV is standing by (TVs and HDMI devices only).
    public var isStandBy: Bool?

    /// The most apps kept of one status; a receiver runs one or two.
    public static let maximumApplications = 16

    /// Creates a status.
    public init(
        applications: [ReceiverApplication]? = nil, volume: ReceiverVolume? = nil, isActiveInput: Bool? = nil,
        isStandBy: Bool? = nil
    ) {
        self.applications = applications
        self.volume = volume
        self.isActiveInput = isActiveInput
        self.isStandBy = isStandBy
    }

    /// The app in front that is not the idle screen, if any.
    public var runningApplication: ReceiverApplication? {
        applications?.first { $0.isIdleScreen != true }
    }
}

/// One app a receiver runs, as RECEIVER_STATUS lists it.
public struct ReceiverApplication: Sendable, Hashable, Codable {
    /// The app's id (`CC1AD845` is the Default Media Receiver).
    public var appId: String?
    /// The id the app has on every platform (differs from `appId` for Android TV apps).
    public var universalAppId: String?
    /// The app's name.
    public var displayName: String?
    /// What the app says it is doing ("Casting", a title).
    public var statusText: String?
    /// Whether this is the idle screen (the backdrop), not an app someone cast.
    public var isIdleScreen: Bool?
    /// `WEB`, `ANDROID_TV`, ...
    public var appType: String?
    /// The session's id.
    public var sessionId: String?

    /// Creates an app.
    public init(
        appId: String? = nil, universalAppId: String? = nil, displayName: String? = nil, statusText: String? = nil,
        isIdleScreen: Bool? = nil, appType: String? = nil, sessionId: String? = nil
    ) {
        self.appId = appId
        self.universalAppId = universalAppId
        self.displayName = displayName
        self.statusText = statusText
        self.isIdleScreen = isIdleScreen
        self.appType = appType
        self.sessionId = sessionId
    }
}

/// A receiver's volume, as RECEIVER_STATUS gives it.
public struct ReceiverVolume: Sendable, Hashable, Codable {
    /// The level, 0 to 1 (values outside are not kept).
    public var level: Double?
    /// Whether it is muted.
    public var muted: Bool?
    /// `master` (the device's own), `attenuation` (a TV or amplifier behind it), `fixed`.
    public var controlType: String?
    /// The step a volume button moves, 0 to 1.
    public var stepInterval: Double?

    /// Creates a volume.
    public init(level: Double? = nil, muted: Bool? = nil, controlType: String? = nil, stepInterval: Double? = nil) {
        self.level = level
        self.muted = muted
        self.controlType = controlType
        self.stepInterval = stepInterval
    }
}
