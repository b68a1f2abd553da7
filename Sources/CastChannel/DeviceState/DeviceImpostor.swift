import CastDiscovery

/// A listed device that fails device authentication while another listed device with the same
/// friendly name passes: it pretends to be that one (a laptop on the guest Wi-Fi announcing
/// itself as "Conference Room TV").
///
/// A device that announces another's Cast id is not another listed device: the SDK's rules
/// make both one device (`CastDevice.uniqueID` is the id), with two copies.
public struct DeviceImpostor: Sendable, Hashable, Codable {
    /// The genuine device's unique ID.
    public var uniqueID: String
    /// The genuine device's friendly name, which the impostor announces too.
    public var friendlyName: String

    /// An impostor's target.
    public init(uniqueID: String, friendlyName: String) {
        self.uniqueID = uniqueID
        self.friendlyName = friendlyName
    }

    /// The impostors among `devices`, by unique ID: each device `authenticated` says failed,
    /// beside a device that passed with its friendly name. Devices whose verdict is unknown
    /// (nil) are neither.
    public static func find(in devices: [CastDevice], authenticated: (CastDevice) -> Bool?) -> [String: DeviceImpostor]
    {
        var genuineByName: [String: CastDevice] = [:]
        var failed: [CastDevice] = []
        for device in devices {
            switch authenticated(device) {
            case true?: if genuineByName[device.friendlyName] == nil { genuineByName[device.friendlyName] = device }
            case false?: failed.append(device)
            case nil: break
            }
        }
        var result: [String: DeviceImpostor] = [:]
        for device in failed {
            guard let genuine = genuineByName[device.friendlyName], genuine.uniqueID != device.uniqueID else {
                continue
            }
            result[device.uniqueID] = DeviceImpostor(uniqueID: genuine.uniqueID, friendlyName: genuine.friendlyName)
        }
        return result
    }
}
