import CastChannel

/// What `cast-scan status` learnt of one receiver: the probe's result, the verdict on its
/// answer to the device-authentication challenge, and the files `--save-auth` wrote.
package struct ReceiverCheck: Sendable {
    var result: ReceiverProbeResult
    /// nil when authentication was not asked, or the channel never opened.
    var verdict: DeviceAuthVerdict?
    /// The receiver this one pretends to be.
    var impostorOf: DeviceImpostor?
    var saved: DeviceAuthReport.SavedFiles?

    /// A receiver's check.
    package init(result: ReceiverProbeResult, verdict: DeviceAuthVerdict? = nil) {
        self.result = result
        self.verdict = verdict
    }

    /// The verdict as JSON.
    var authReport: DeviceAuthReport? {
        verdict.map { DeviceAuthReport($0, impostorOf: impostorOf, saved: saved) }
    }

    /// Whether the receiver answered and (when asked) proved it is genuine.
    var passed: Bool { result.isReachable && (verdict?.authenticated ?? true) }
}
