import CastSender

/// Prints check findings for people: severity, code, message, fix; values already quoted safely.
struct FindingPrinter {
    let console: Console

    func print(_ findings: [CheckFinding]) {
        for finding in findings {
            let color: OutputStyle.Color
            switch finding.severity {
            case .error: color = .red
            case .warning: color = .yellow
            case .info: color = .blue
            }
            let label = console.outputStyle.paint(finding.severity.rawValue, color)
            console.line("\(label) [\(finding.code.rawValue)] \(TerminalText.sanitize(finding.message))")
            console.line("  fix: \(TerminalText.sanitize(finding.fix))")
        }
    }
}
