import CastChannel
import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One device in `cast-scan`'s JSON output (schema version 1). Every field of the device is
/// here, whole: names are not cut or escaped (JSON escapes control characters itself).
package struct DeviceReport: Encodable, Sendable {
    struct Address: Encodable, Sendable {
        var address: String
        var family: String
        var interface: String?
    }

    struct Problem: Encodable, Sendable {
        var code: String
        var message: String
        var violatesReceiverRules: Bool
    }

    var uniqueID: String
    var deviceID: String
    var friendlyName: String
    var modelName: String?
    var kind: String
    var status: String
    var statusText: String?
    var capabilities: UInt64
    var capabilityNames: [String]
    var protocolVersion: Int?
    var iconPath: String?
    var instanceName: String
    var hostName: String
    var port: UInt16
    var addresses: [Address]
    /// `host` when found by asking a host the user named (`--host`), else `multicast`.
    var source: String
    /// The `--host` value it was found through, when `source` is `host`.
    var knownHost: String?
    var txt: [String]
    /// The TXT strings as hex, only when one is not UTF-8 (`txt` then has U+FFFD in its place).
    var txtHex: [String]?
    var problems: [Problem]
    /// What the device said over the Cast channel, or why it said nothing (`--status`).
    var receiver: ReceiverStatusReport.Receiver?

    init(_ device: CastDevice, receiver: ReceiverProbeResult?, auth: DeviceAuthReport?) {
        self.init(device, receiver: receiver)
        self.receiver?.auth = auth
    }

    package init(_ device: CastDevice, receiver: ReceiverProbeResult? = nil) {
        self.receiver = receiver.map { ReceiverStatusReport.Receiver($0) }
        uniqueID = device.uniqueID
        deviceID = device.id.rawValue
        friendlyName = device.friendlyName
        modelName = device.modelName
        kind = device.kind.rawValue
        status = device.status.description
        statusText = device.statusText
        capabilities = device.capabilities.rawValue
        capabilityNames = device.capabilities.allNames
        protocolVersion = device.protocolVersion
        iconPath = device.iconPath
        instanceName = device.instanceName
        hostName = device.hostName
        port = device.port
        addresses = device.addresses.map {
            Address(address: $0.address, family: $0.family.rawValue, interface: $0.interfaceName)
        }
        source = device.knownHost == nil ? "multicast" : "host"
        knownHost = device.knownHost
        txt = device.txt.entries.map { String(decoding: $0.bytes, as: UTF8.self) }
        if device.txt.entries.contains(where: { String(validating: $0.bytes, as: UTF8.self) == nil }) {
            txtHex = device.txt.entries.map { HexText.encode($0.bytes) }
        }
        problems = device.problems.map {
            Problem(code: $0.code, message: $0.description, violatesReceiverRules: $0.violatesReceiverRules)
        }
    }
}
