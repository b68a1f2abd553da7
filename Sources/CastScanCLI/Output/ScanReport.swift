import CastDiscovery
import CastSender

/// The JSON document `cast-scan --json` prints (schema version 1, documented in the README).
struct ScanReport: Encodable {
    struct Scan: Encodable {
        var complete: Bool
        var elapsedSeconds: Double
        var timeoutSeconds: Double
        var browseTypes: [String]
        var browses: [Browse]
        var backend: String
        var backendReason: String
        /// What a backend that reads the network itself counted (the mDNS querier).
        var statistics: BackendStatistics?
        var resolveFailures: [String]
    }

    /// What settled one browse, and when (`settledBy` is absent when it had not settled).
    struct Browse: Encodable {
        var browseType: String
        var settledBy: BrowseSettlement.Reason?
        var settledAfterSeconds: Double?
        var cacheDeliveredAfterSeconds: Double?
        var services: Int
        var servicesFromCache: Int?

        init(_ settlement: BrowseSettlement) {
            browseType = settlement.browseType
            settledBy = settlement.reason
            settledAfterSeconds = settlement.after.map(ScanReport.milliseconds)
            cacheDeliveredAfterSeconds = settlement.cacheDeliveredAfter.map(ScanReport.milliseconds)
            services = settlement.services
            servicesFromCache = settlement.servicesFromCache
        }
    }

    /// `duration` in seconds, rounded to the millisecond.
    static func milliseconds(_ duration: Duration) -> Double {
        (duration.seconds * 1000).rounded() / 1000
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
    /// `0.5.0 (commit 1a2b3c4)`: which cast-scan wrote the report.
    var toolVersion = BuildInfo.description
    var scan: Scan
    var sender: Sender
    /// Every Cast device on the network (matching the criteria and filters).
    var devices: [DeviceReport]
    /// How many of them the simulated app sees.
    var visibleDeviceCount: Int
    /// Every problem the lenient validator recorded, by device.
    var problemCount: Int
}
