import CastDiscovery

/// A device as a ``SenderFlowStep`` lists it: enough to name it.
public struct SenderVisibleDevice: Sendable, Hashable, Codable, CustomStringConvertible {
    /// `googlecast:<id>`, the SDK's `uniqueID`.
    public var uniqueID: String
    /// The friendly name.
    public var friendlyName: String
    /// The model name, when published.
    public var modelName: String?

    /// Creates an entry.
    public init(uniqueID: String, friendlyName: String, modelName: String? = nil) {
        self.uniqueID = uniqueID
        self.friendlyName = friendlyName
        self.modelName = modelName
    }

    /// The entry for a discovered device.
    public init(_ device: CastDevice) {
        self.init(uniqueID: device.uniqueID, friendlyName: device.friendlyName, modelName: device.modelName)
    }

    /// The friendly name.
    public var description: String { friendlyName }
}
