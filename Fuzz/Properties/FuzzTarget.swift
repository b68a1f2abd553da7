#if canImport(Dispatch)
import Dispatch
#endif

/// The fuzz targets: one per parser of untrusted input. The raw value is the target's name:
/// its file in `Fuzz/Targets`, its dictionary in `Fuzz/Dictionaries`, its findings in
/// `Fixtures/fuzz/<name>/`.
public enum FuzzTarget: String, CaseIterable, Sendable {
    case dnsMessage = "dns-message"
    case txtRecord = "txt-record"
    case castFrame = "cast-frame"
    case deviceAuth = "device-auth"
    case receiverStatus = "receiver-status"
    case infoPlist = "info-plist"
    case senderScenario = "sender-scenario"
    case stateFile = "state-file"
    case receiverFile = "receiver-file"
    case receiverScript = "receiver-script"
    case replay = "replay"
    case reportURL = "report-url"
    case httpRequest = "http-request"

    /// The longest input libFuzzer makes (`-max_len`): room for what each parser reads, no more
    /// than keeps the executions fast.
    public var maximumLength: Int {
        switch self {
        case .dnsMessage: 9000  // DNSMessage.maximumSize
        case .txtRecord: 2048
        case .castFrame: 8192
        case .deviceAuth: 8192
        case .receiverStatus: 4096
        case .infoPlist: 8192
        case .senderScenario: 8192
        case .stateFile: 1024
        case .receiverFile: 8192
        case .receiverScript: 8192  // more than the longest line (4096 bytes)
        case .replay: 8192
        case .reportURL: 4096  // more than the longest URL (2048 bytes)
        case .httpRequest: 4096
        }
    }

    /// Runs the parser on `bytes` and checks its properties.
    ///
    /// - Throws: ``PropertyFailure`` when a property does not hold.
    public func check(_ bytes: [UInt8]) async throws(PropertyFailure) {
        switch self {
        case .senderScenario: try await SenderScenarioProperties.check(bytes)
        default: try checkNow(bytes)
        }
    }

    /// ``check(_:)`` for a caller that cannot wait asynchronously (libFuzzer's callback): an
    /// asynchronous check runs in a task while this thread waits. Not for a thread of Swift's
    /// concurrency pool.
    public func checkBlocking(_ bytes: [UInt8]) throws(PropertyFailure) {
        switch self {
        case .senderScenario:
            let outcome = Outcome()
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                do throws(PropertyFailure) {
                    try await SenderScenarioProperties.check(bytes)
                } catch {
                    outcome.failure = error
                }
                done.signal()
            }
            done.wait()
            if let failure = outcome.failure { throw failure }
        default:
            try checkNow(bytes)
        }
    }

    private func checkNow(_ bytes: [UInt8]) throws(PropertyFailure) {
        switch self {
        case .dnsMessage: try DNSMessageProperties.check(bytes)
        case .txtRecord: try TXTRecordProperties.check(bytes)
        case .castFrame: try CastFrameProperties.check(bytes)
        case .deviceAuth: try DeviceAuthProperties.check(bytes)
        case .receiverStatus: try ReceiverStatusProperties.check(bytes)
        case .infoPlist: try InfoPlistProperties.check(bytes)
        case .senderScenario: preconditionFailure("sender-scenario is checked asynchronously")
        case .stateFile: try StateFileProperties.check(bytes)
        case .receiverFile: try ReceiverFileProperties.check(bytes)
        case .receiverScript: try ReceiverScriptProperties.check(bytes)
        case .replay: try ReplayProperties.check(bytes)
        case .reportURL: try ReportURLProperties.check(bytes)
        case .httpRequest: try HTTPRequestProperties.check(bytes)
        }
    }

    /// What a detached check left: written before the semaphore is signalled, read after.
    private final class Outcome: @unchecked Sendable {
        var failure: PropertyFailure?
    }
}
