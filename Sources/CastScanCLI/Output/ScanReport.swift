import CastDiscovery
import CastSender

/// The JSON document `cast-scan --json` prints (schema version 1, documented in the README).
struct ScanReport: Encodable {
    struct Scan: Encodable {
        var complete: Bool
        var elapsedSeconds: Double
        var timeoutSeconds: Double
        var browseTypes: [String]
        var backend: String
        var resolveFailures: [String]
    }

    struct Sender: Encodable {
        var platform: String
        var sdkVersion: String
        var disableDiscoveryAutostart: Bool
        var startDiscoveryAfterFirstTapOnCastButton: Bool
        var stateFile: String
        var step: SenderFlowStep
        var warnings: [String]
    }

    var schemaVersion = 1
    var tool = "cast-scan"
    var scan: Scan
    var sender: Sender
    /// Every Cast device on the network (matching the criteria and filters).
    var devices: [DeviceReport]
    /// How many of them the simulated app sees.
    var visibleDeviceCount: Int
    /// Every problem the lenient validator recorded, by device.
    var problemCount: Int
}
