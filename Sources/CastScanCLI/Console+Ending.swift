import CastDiscovery
import Dispatch

/// How the process ends with text still queued: it waits for a slow reader, unless a
/// termination signal comes; then what standard output still holds is dropped (and said).
extension Console {
    /// How long standard output and error may still take after a termination signal: enough for
    /// a reader that reads, so only a stalled one loses lines.
    static let graceAfterSignal: DispatchTimeInterval = .milliseconds(100)

    /// From now on, standard output is a live stream of lines (`watch`): a reader slower than the
    /// events loses the oldest lines queued, said on standard error, instead of the queue growing.
    /// A regular file is always read: its lines wait within a document's bound.
    func streamLines() {
        guard let output = queued?.output else { return }
        output.setBound(output.isRegularFile ? .liveLinesToFile : .liveLines)
    }

    /// Waits until standard output has written what it was given; false if it had not
    /// ``graceAfterSignal`` after a termination signal (caught before or during the wait).
    func outputWritten() async -> Bool {
        guard let queued else { return true }
        return await Self.written(queued.output)
    }

    /// Drops what standard output still holds and takes no more; says on standard error how many
    /// lines it dropped in all, if any (nothing after a failure, which is said on its own).
    func abandonOutput() {
        queued?.output.abandon()
    }

    /// Waits until standard error has written what it was given, or ``graceAfterSignal`` after
    /// a termination signal.
    func errorsWritten() async {
        guard let queued else { return }
        _ = await Self.written(queued.error)
    }

    /// ``abandonOutput()``, then at most ``graceAfterSignal`` for standard error: for a process
    /// that must end now, from a thread of its own (it blocks that thread, not the concurrency
    /// pool).
    func abandonNow() {
        abandonOutput()
        guard let queued else { return }
        let written = DispatchSemaphore(value: 0)
        queued.error.whenWritten { written.signal() }
        _ = written.wait(timeout: .now() + Self.graceAfterSignal)
    }

    /// Whether `sink` wrote its text before ``graceAfterSignal`` had passed since the first
    /// termination signal.
    private static func written(_ sink: FileDescriptorSink) async -> Bool {
        await withCheckedContinuation { continuation in
            let once = ResumeOnce(continuation)
            sink.whenWritten { once.resume(returning: true) }
            SignalStream.whenCaught { _ in
                DispatchQueue.global().asyncAfter(deadline: .now() + graceAfterSignal) { once.resume(returning: false) }
            }
        }
    }
}

/// A continuation resumed by whichever of its resumers comes first; the others do nothing.
private final class ResumeOnce: Sendable {
    private let continuation: LockedValue<CheckedContinuation<Bool, Never>?>

    init(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation = LockedValue(continuation)
    }

    func resume(returning value: Bool) {
        continuation.withLock { $0.take() }?.resume(returning: value)
    }
}
