import CastDiscovery
import CastSender
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The simulated sender app described on the command line.
struct SenderOptions {
    var configuration: SenderAppConfiguration
    var permission: LocalNetworkPermission?
    var tap: Bool
    var stateFile: URL

    /// - Throws: ``UsageError`` for a bad value or an app that cannot exist (iOS 13 with SDK
    ///   4.8.1 or later: exit 64, naming the minimum); ``CommandFailure`` (exit 65) for an
    ///   unreadable `--plist`.
    init(_ arguments: ParsedArguments, environment: [String: String]) throws {
        let platform = try Self.platform(arguments)
        let sdk = try SenderProjectOptions.version(arguments, SenderProjectOptions.sdk)
        var options = CastOptions(platform: platform)
        options.disableDiscoveryAutostart = arguments.isSet(Self.disableAutostart)
        options.startDiscoveryAfterFirstTapOnCastButton = !arguments.isSet(Self.noFirstTap)
        let infoPlist = try Self.infoPlist(arguments)
        configuration = SenderAppConfiguration(
            sdkVersion: sdk ?? SenderProjectOptions.defaultSDK, options: options,
            xcodeVersion: try SenderProjectOptions.version(arguments, SenderProjectOptions.xcode),
            appPresentsDialogs: arguments.isSet(Self.appDialogs), infoPlist: infoPlist)
        do throws(SenderConfigurationError) {
            try configuration.validate()
        } catch {
            throw UsageError.impossibleApp(error.message)
        }
        switch arguments.value(of: Self.permission) {
        case "granted": permission = .granted
        case "denied": permission = .denied
        case "undetermined": permission = .notDetermined
        default: permission = nil
        }
        tap = arguments.isSet(Self.tap)
        stateFile = Self.stateFile(arguments, environment: environment)
    }

    /// The sender's platform: iOS at the `--ios` version, else Linux.
    static func platform(_ arguments: ParsedArguments) throws(UsageError) -> SenderPlatform {
        let option = SenderProjectOptions.ios
        guard let ios = arguments.value(of: option) else { return .linux }
        guard let platform = try? SenderPlatform(parsing: ios), platform != .linux else {
            throw UsageError.invalidValue(
                option: option.displayName, value: ios, expected: "an iOS version such as 14.5")
        }
        return platform
    }

    /// The app's Info.plist, read from the `--plist` file, if given.
    static func infoPlist(_ arguments: ParsedArguments) throws(CommandFailure) -> SenderInfoPlist? {
        guard let path = arguments.value(of: Self.infoPlist) else { return nil }
        do throws(InfoPlistError) {
            return try SenderInfoPlist(fileAt: path)
        } catch {
            throw CommandFailure(message: error.description, exitCode: .dataError)
        }
    }

    /// The state file: `--state`, else `cast-scan/sender.json` in `$XDG_STATE_HOME`, else in
    /// `~/.local/state`.
    static func stateFile(_ arguments: ParsedArguments, environment: [String: String]) -> URL {
        if let path = arguments.value(of: Self.state) { return URL(fileURLWithPath: RawPath.absolute(path)) }
        return URL(fileURLWithPath: RawPath.absolute(stateDirectory(environment) + "/sender.json"))
    }

    /// The tool's state directory: `cast-scan` in `$XDG_STATE_HOME`, else in `~/.local/state`.
    static func stateDirectory(_ environment: [String: String]) -> String {
        let base =
            environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? Self.temporaryDirectory(environment)) + "/.local/state")
        return base + "/cast-scan"
    }

    /// Where temporary files go: `$TMPDIR` (without a trailing slash), else `/tmp`.
    static func temporaryDirectory(_ environment: [String: String]) -> String {
        var path = environment["TMPDIR"] ?? ""
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        return path.isEmpty ? "/tmp" : path
    }

    /// Refuses, before anything runs, a state path that is not a regular file (a device, FIFO,
    /// socket or directory, or a link to one): exit 73, and the path is left untouched.
    func checkStateFile() throws(CommandFailure) {
        do throws(DiscoveryStartStoreError) {
            try SenderFlowStore(url: stateFile).checkUsable()
        } catch let error where error.kind == .refused {
            throw CommandFailure(message: error.description, exitCode: .cannotCreate)
        } catch {
            // Anything else (no permission to look) is reported when the file is used.
        }
    }

    /// Runs the app's launch (and a tap when asked) on a network with `devices`, from the
    /// stored state, saves what the app remembers, and returns the last snapshot and any
    /// problem with the state file (reported, never fatal).
    ///
    /// - Throws: ``CommandFailure`` (exit 73) when the state path is not a regular file.
    func simulate(devices: [CastDevice]) throws(CommandFailure) -> (step: SenderFlowStep, warnings: [String]) {
        var warnings: [String] = []
        let store = SenderFlowStore(url: stateFile)
        var state = SenderFlowState()
        do throws(DiscoveryStartStoreError) {
            let loaded = try store.load()
            state = loaded.state
            if let problem = loaded.problem { warnings.append("\(problem); starting from a fresh install") }
        } catch let error where error.kind == .refused {
            throw CommandFailure(message: error.description, exitCode: .cannotCreate)
        } catch {
            warnings.append("\(error); starting from a fresh install")
        }
        if let permission {
            state.localNetworkPermission = permission
            // The prompt is answered only once discovery has run: an answer implies it.
            if permission != .notDetermined { state.discoveryHasStartedOnce = true }
        }
        var flow = SenderFlow(configuration: configuration, state: state, wifi: true, networkDevices: devices)
        var step = flow.handle(.appLaunched)
        if tap {
            step = flow.handle(.castButtonTapped)
            if step.screen == .sdkInterstitial { step = flow.handle(.interstitialDismissed) }
        }
        do throws(DiscoveryStartStoreError) {
            try store.save(flow.state)
        } catch let error where error.kind == .refused {
            throw CommandFailure(message: error.description, exitCode: .cannotCreate)
        } catch {
            warnings.append("\(error); the app's state was not kept")
        }
        return (step, warnings)
    }
}
