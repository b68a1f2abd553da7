import CastDiscovery
import CastSender

/// The JSON document `cast-scan --json` prints (schema version 1, documented in docs/cli.md,
/// "JSON output").
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
        /// Each source's part when the backend is a merge (`mdns+avahi`); absent otherwise.
        var sources: [Source]?

        init(_ settlement: BrowseSettlement) {
            browseType = settlement.browseType
            settledBy = settlement.reason
            settledAfterSeconds = settlement.after.map(ScanReport.milliseconds)
            cacheDeliveredAfterSeconds = settlement.cacheDeliveredAfter.map(ScanReport.milliseconds)
            services = settlement.services
            servicesFromCache = settlement.servicesFromCache
            sources = settlement.sources.isEmpty ? nil : settlement.sources.map(Source.init)
        }
    }

    /// What one source of a merge had done for a browse when it settled.
    struct Source: Encodable {
        var source: String
        var role: MergedBackend.Role
        var cacheDeliveredAfterSeconds: Double?
        var allForNowAfterSeconds: Double?
        var absentAfterSeconds: Double?
        var cacheWaitOverAfterSeconds: Double?
        var services: Int
        var servicesFromCache: Int?

        init(_ settlement: SourceSettlement) {
            source = settlement.source
            role = settlement.role
            cacheDeliveredAfterSeconds = settlement.cacheDeliveredAfter.map(ScanReport.milliseconds)
            allForNowAfterSeconds = settlement.allForNowAfter.map(ScanReport.milliseconds)
            absentAfterSeconds = settlement.absentAfter.map(ScanReport.milliseconds)
            cacheWaitOverAfterSeconds = settlement.cacheWaitOverAfter.map(ScanReport.milliseconds)
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
