import Synchronization

/// A sink that keeps what is written, for tests and programs that embed the commands.
public final class CapturedText: TextSink {
    private let text = Mutex("")

    /// Creates an empty sink.
    public init() {}

    /// Everything written so far.
    public var contents: String { text.withLock { $0 } }

    public func write(_ text: String) { self.text.withLock { $0 += text } }

    /// Always nil: the sink never fails.
    public var failure: OutputFailure? { nil }
}
