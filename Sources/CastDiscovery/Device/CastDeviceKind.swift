/// What kind of receiver a device is, from its capabilities, model and port.
public enum CastDeviceKind: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// A TV or dongle: it has video out.
    case video
    /// A speaker: audio out, no video out.
    case audio
    /// A static speaker group.
    case group
    /// A dynamic group (made on the fly from a sender).
    case dynamicGroup
    /// Neither video nor audio out and no sign of a group.
    case generic

    /// The model name groups publish (`md`).
    public static let groupModelName = "Google Cast Group"
    /// The port every single receiver listens on; groups use a changing high port.
    public static let devicePort: UInt16 = 8009

    /// Classifies a receiver.
    ///
    /// A device is a dynamic group when it has the dynamic-group bit; a group when it has the
    /// multizone-group bit, its model is ``groupModelName``, or it has no video out and listens
    /// on a port other than ``devicePort``; otherwise video when it has video out, audio when it
    /// has audio out, else generic.
    public init(capabilities: CastCapabilities, modelName: String?, port: UInt16) {
        if capabilities.contains(.dynamicGroup) {
            self = .dynamicGroup
        } else if capabilities.contains(.multizoneGroup) || modelName == Self.groupModelName
            || (port != Self.devicePort && port != 0 && !capabilities.contains(.videoOut))
        {
            self = .group
        } else if capabilities.contains(.videoOut) {
            self = .video
        } else if capabilities.contains(.audioOut) {
            self = .audio
        } else {
            self = .generic
        }
    }

    /// Whether this is a static or dynamic group.
    public var isGroup: Bool { self == .group || self == .dynamicGroup }

    /// The SDK's `GCKDeviceType` value: generic 0, TV 1, speaker 2, speaker group 3.
    public var sdkDeviceType: Int {
        switch self {
        case .generic: 0
        case .video: 1
        case .audio: 2
        case .group, .dynamicGroup: 3
        }
    }

    public var description: String {
        switch self {
        case .dynamicGroup: "dynamic group"
        default: rawValue
        }
    }
}
