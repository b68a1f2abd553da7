import CastChannel
import CastDiscovery
import CastDiscoveryBackends
import CastSender

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ListCommand {
    /// What one listing found: the scan, its devices once filtered, and what the simulated app saw.
    struct Listing {
        var selection: BackendSelection
        var result: ScanResult
        var devices: [CastDevice]
        var step: SenderFlowStep
        var warnings: [String]
        /// What each device said over the Cast channel (`--status`); nil without it.
        var sweep: ReceiverStatusSweep?
        /// Each device's device-authentication verdict (`--status` without `--no-auth`).
        var auth: DeviceAuthVerdicts?

        /// The unique IDs of the devices the app sees.
        var visible: Set<String> { Set(step.visibleDevices.map(\.uniqueID)) }
    }

    /// The listing as the JSON document of `--json`.
    func report(_ listing: Listing) -> ScanReport {
        let result = listing.result, options = sender.configuration.options
        return ScanReport(
            scan: .init(
                complete: result.isComplete, elapsedSeconds: ScanReport.milliseconds(result.elapsed),
                timeoutSeconds: scanOptions.timeout.seconds,
                browseTypes: scanOptions.criteria.browseTypes,
                browses: result.browses.map(ScanReport.Browse.init),
                backend: listing.selection.name, backendReason: listing.selection.reason, statistics: result.statistics,
                resolveFailures: result.resolveFailures.map(Self.describe)),
            sender: .init(
                platform: options.platform.description, sdkVersion: sender.configuration.sdkVersion.description,
                disableDiscoveryAutostart: options.disableDiscoveryAutostart,
                startDiscoveryAfterFirstTapOnCastButton: options.startDiscoveryAfterFirstTapOnCastButton,
                stateFile: sender.stateFile.path, step: listing.step, warnings: listing.warnings),
            devices: listing.devices.map { device in
                DeviceReport(device, receiver: listing.sweep?.result(for: device), auth: listing.auth?.report(device))
            },
            visibleDeviceCount: listing.visible.count,
            problemCount: listing.devices.reduce(0) { $0 + $1.problems.count })
    }

    /// The listing for people: the state file's warnings, the sender's header, the devices the
    /// app sees, a summary line, then what did not answer.
    func printText(_ listing: Listing) {
        let console = context.console
        for warning in listing.warnings { console.errorLine("cast-scan: \(TerminalText.sanitize(warning))") }
        SenderHeader(console: console, sender: sender, step: listing.step, backend: listing.selection).print()
        let visible = listing.visible
        let shown = listing.devices.filter { visible.contains($0.uniqueID) }
        if !shown.isEmpty {
            console.write(DeviceTable.render(shown, states: listing.sweep?.states, auth: listing.auth))
        }
        printSummary(listing, shown: shown.count)
        for host in listing.result.statistics?.unansweredHosts ?? [] {
            console.errorLine(
                "cast-scan: no answer from host \(TerminalText.sanitize(host)) (DNS-SD by unicast to port 5353)")
        }
        for failure in listing.result.resolveFailures {
            console.errorLine("cast-scan: could not resolve \(TerminalText.sanitize(Self.describe(failure)))")
        }
    }

    /// How many devices there are and how long the scan took; when the app sees fewer than the
    /// network has, how many and why.
    private func printSummary(_ listing: Listing, shown: Int) {
        let console = context.console, result = listing.result, total = listing.devices.count
        let timing =
            result.isComplete
            ? "scan complete in \(Self.seconds(result.elapsed.seconds))"
            : "scan stopped at the \(Self.seconds(result.elapsed.seconds)) timeout; the list may be incomplete"
        if shown == total {
            console.line("\(total) device\(total == 1 ? "" : "s") (\(timing))")
        } else {
            console.line(
                "The app sees \(shown) of the \(total) Cast device\(total == 1 ? "" : "s") on the network (\(timing)).")
            console.line(SenderHeader.howToSee(step: listing.step, sender: sender))
        }
    }

    /// `instance: reason`, as the text output and JSON give a failed resolve.
    static func describe(_ failure: ResolveFailure) -> String {
        "\(failure.service.name): \(failure.error.message)"
    }

    /// A duration for people: milliseconds under a second, else seconds with two decimals.
    static func seconds(_ value: Double) -> String {
        value < 1 ? "\(Int((value * 1000).rounded())) ms" : NumberText.fixed(value, digits: 2) + " s"
    }
}
