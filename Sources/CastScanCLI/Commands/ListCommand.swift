import CastDiscovery
import CastDiscoveryBackends
import CastSender

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `cast-scan` with no subcommand: one scan, then the devices beside the simulated sender.
/// The root of the command tree.
struct ListCommand: Command {
    static let failIfEmpty = OptionDeclaration.flag("fail-if-empty", help: "exit 1 when no device is listed")

    static let declaration = CommandDeclaration(
        name: "cast-scan",
        abstract: "List the Google Cast devices on the network beside what a sender app would see.",
        discussion: """
            Exit status: 0 ok, 1 no devices with --fail-if-empty, 2 findings with errors (plist check), \
            64 usage error, 65 bad input file, 69 the chosen backend unavailable (--backend avahi \
            without avahi-daemon), 73 a path to write is not a regular file, 74 standard output \
            cannot be written.
            """,
        options: ScanOptions.declarations + SenderOptions.declarations + [JSONOutput.option, failIfEmpty])

    static var subcommands: [any Command.Type] {
        [WatchCommand.self, PlistCommand.self, AdviseCommand.self, SimulateCommand.self, DoctorCommand.self]
    }

    let context: CommandContext
    let scanOptions: ScanOptions
    var sender: SenderOptions

    init(_ context: CommandContext) throws {
        self.context = context
        let arguments = context.arguments
        scanOptions = try ScanOptions(arguments)
        sender = try SenderOptions(arguments, environment: context.environment)
        // The simulated app browses for the receiver apps the scan filters on (--app-id); with
        // none it has GCKCastOptions' default, the Default Media Receiver.
        if !arguments.values(of: ScanOptions.appID).isEmpty {
            sender.configuration.options.criteria = scanOptions.criteria
        }
    }

    func run() async throws -> ExitCode {
        let arguments = context.arguments
        let console = context.console
        let json = arguments.isSet(JSONOutput.option)
        try sender.checkStateFile()

        let selection: BackendSelection
        do {
            selection = try scanOptions.backend(live: false)
        } catch {
            throw CommandFailure(error)
        }
        let style = console.errorStyle
        let manager = DiscoveryManager(backend: selection.backend, criteria: scanOptions.criteria)
        let result: ScanResult
        do {
            result = try await manager.scan(timeout: scanOptions.timeout) { count in
                console.writeError(style.progress("scanning… \(count) device\(count == 1 ? "" : "s")"))
            }
        } catch {
            console.writeError(style.clearProgress())
            throw CommandFailure(error)
        }
        console.writeError(style.clearProgress())
        let devices = result.devices.compactMap(scanOptions.filter)
        let (step, warnings) = try sender.simulate(devices: devices)
        let visible = Set(step.visibleDevices.map(\.uniqueID))

        if json {
            let options = sender.configuration.options
            let report = ScanReport(
                scan: .init(complete: result.isComplete, elapsedSeconds: ScanReport.milliseconds(result.elapsed),
                            timeoutSeconds: scanOptions.timeout.seconds,
                            browseTypes: scanOptions.criteria.browseTypes,
                            browses: result.browses.map(ScanReport.Browse.init),
                            backend: selection.name, backendReason: selection.reason, statistics: result.statistics,
                            resolveFailures: result.resolveFailures.map(Self.describe)),
                sender: .init(platform: options.platform.description, sdkVersion: sender.configuration.sdkVersion.description,
                              disableDiscoveryAutostart: options.disableDiscoveryAutostart,
                              startDiscoveryAfterFirstTapOnCastButton: options.startDiscoveryAfterFirstTapOnCastButton,
                              stateFile: sender.stateFile.path, step: step, warnings: warnings),
                devices: devices.map(DeviceReport.init), visibleDeviceCount: visible.count,
                problemCount: devices.reduce(0) { $0 + $1.problems.count })
            console.write(try JSONOutput.string(report, format: .pretty))
        } else {
            for warning in warnings { console.errorLine("cast-scan: \(TerminalText.sanitize(warning))") }
            SenderHeader(console: console, sender: sender, step: step, backend: selection).print()
            let shown = devices.filter { visible.contains($0.uniqueID) }
            if !shown.isEmpty { console.write(DeviceTable.render(shown)) }
            let timing = result.isComplete
                ? "scan complete in \(Self.seconds(result.elapsed.seconds))"
                : "scan stopped at the \(Self.seconds(result.elapsed.seconds)) timeout; the list may be incomplete"
            if shown.count == devices.count {
                console.line("\(devices.count) device\(devices.count == 1 ? "" : "s") (\(timing))")
            } else {
                console.line("The app sees \(shown.count) of the \(devices.count) Cast device\(devices.count == 1 ? "" : "s") on the network (\(timing)).")
                console.line(SenderHeader.howToSee(step: step, sender: sender))
            }
            for host in result.statistics?.unansweredHosts ?? [] {
                console.errorLine("cast-scan: no answer from host \(TerminalText.sanitize(host)) (DNS-SD by unicast to port 5353)")
            }
            for failure in result.resolveFailures {
                console.errorLine("cast-scan: could not resolve \(TerminalText.sanitize(Self.describe(failure)))")
            }
        }
        if arguments.isSet(Self.failIfEmpty) && devices.isEmpty { return .noDevices }
        return .ok
    }

    /// `instance: reason`, as the text output and JSON give a failed resolve.
    static func describe(_ failure: ResolveFailure) -> String {
        "\(failure.service.name): \(failure.error.message)"
    }

    static func seconds(_ value: Double) -> String {
        value < 1 ? "\(Int((value * 1000).rounded())) ms" : NumberText.fixed(value, digits: 2) + " s"
    }
}
