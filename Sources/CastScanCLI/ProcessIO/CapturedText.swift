import CastDiscovery

/// A sink that keeps what is written, for tests.
final class CapturedText: TextSink {
    private let text = LockedValue("")

    /// Creates an empty sink.
    init() {}

    /// Everything written so far.
    var contents: String { text.withLock { $0 } }

    func write(_ text: String) { self.text.withLock { $0 += text } }

    /// Always nil: the sink never fails.
    var failure: OutputFailure? { nil }
}
