import CastDiscoveryBackends
import CastSender

/// The block above the device table: who the simulated sender is and what it experiences.
struct SenderHeader {
    let console: Console
    let sender: SenderOptions
    let step: SenderFlowStep
    var backend: BackendSelection?

    func print() {
        let options = sender.configuration.options
        let style = console.outputStyle
        let configuration = sender.configuration
        console.line(
            style.paint("Sender", .bold) + ": \(options.platform), Cast SDK \(configuration.sdkVersion)"
                + (configuration.xcodeVersion.map { ", built with Xcode \($0)" } ?? "")
                + (sender.tap ? ", after a Cast button tap" : ", just launched"))
        console.line(
            "  start flags: disableDiscoveryAutostart=\(options.disableDiscoveryAutostart)"
                + " startDiscoveryAfterFirstTapOnCastButton=\(options.startDiscoveryAfterFirstTapOnCastButton)")
        let permission = step.localNetworkPermission
        let permissionText = permission == .denied ? style.paint(permission.description, .red) : permission.description
        console.line(
            "  local network: \(permissionText)   discovery: \(step.discoveryRunning ? "running" : "not running")"
                + (step.discoveryHasStartedOnce ? "" : " (never started)"))
        console.line("  Cast button: \(step.castButton)   cast state: \(step.castState)   screen: \(step.screen)")
        if let dialog = step.dialog {
            // The prompt's texts come from the app's Info.plist: sanitized like any input.
            console.line("  dialog: \(TerminalText.sanitize(dialog.title))")
            for hint in dialog.hints { console.line("    - \(TerminalText.sanitize(hint))") }
            if !dialog.buttons.isEmpty {
                console.line("    [\(dialog.buttons.map { TerminalText.sanitize($0) }.joined(separator: "] ["))]")
            }
        }
        for quirk in step.quirks { console.line("  quirk: \(quirk)") }
        for type in step.blockedBrowses {
            let entry = TerminalText.sanitize(type)
            console.line(
                "  " + style.paint("blocked", .red)
                    + ": iOS refuses the browse for \(entry) (NoAuth, -72008); add \(entry) to NSBonjourServices")
        }
        for item in step.inferred { console.line("  inferred: \(item.summary)") }
        if let backend {
            console.line("  discovery backend: \(backend.name) (\(TerminalText.sanitize(backend.reason)))")
        }
        console.line()
    }

    /// One sentence on why the app sees fewer devices than the network has, and what to pass.
    static func howToSee(step: SenderFlowStep, sender: SenderOptions) -> String {
        if let first = step.blockedBrowses.first, step.discoveryRunning {
            let entry = TerminalText.sanitize(first)
            return
                "The Info.plist's NSBonjourServices lacks \(entry), so iOS refuses that browse: add <string>\(entry)</string>."
        }
        if step.localNetworkPermission == .denied {
            return
                "Local network access is denied: the app finds nothing until it is turned on in Settings (try --permission granted)."
        }
        if step.localNetworkPermission == .notDetermined && step.discoveryRunning {
            return
                "The local-network prompt is not answered yet: the app sees nothing until it is (try --permission granted)."
        }
        if !step.discoveryRunning {
            let options = sender.configuration.options
            if options.disableDiscoveryAutostart {
                return "Discovery autostart is disabled: the app must call startDiscovery (drop --disable-autostart)."
            }
            return "Discovery waits for the first Cast button tap (try --tap, or --no-first-tap)."
        }
        return "The app's discovery has not listed them yet."
    }
}
