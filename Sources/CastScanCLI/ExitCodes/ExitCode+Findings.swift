import CastSender

extension ExitCode {
    /// The status of a command that reports check findings (`plist check`, `advise`):
    /// ``checkFailed`` when one of them is an error, else ``ok`` (warnings and notes only).
    init(findings: [CheckFinding]) {
        self = findings.contains { $0.severity == .error } ? .checkFailed : .ok
    }
}
