import CastDiscovery

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's termination signals: the first `SIGINT` or `SIGTERM` is caught, so a
/// command can end cleanly; a second one ends the process at once, by the signal's default
/// action (as a shell reports it: 130 or 143).
///
/// ``install()`` is called as the process starts (first thing in
/// ``CastScan/run(arguments:environment:console:wallClock:)``), so a signal that comes while the command
/// line is parsed or a host name is looked up is caught too; it is kept, and handed to whoever
/// asks later (``termination()``, ``whenCaught(_:)``).
///
/// The handler only restores the default action of both signals and writes the signal's
/// number to a pipe (all async-signal-safe); a thread of its own, blocked in `read`, hands it
/// on, so neither a busy concurrency pool nor Dispatch's threads can delay it.
///
/// Not a dispatch signal source: with those, 1 of about 240 watches in a full test run hung
/// once it had its SIGTERM and never exited (cause not found). On Linux such a source reads a
/// `signalfd` on libdispatch's event thread, while the main thread of an async program waits
/// in `sigsuspend` with every signal unblocked, and libdispatch passes a signal caught there on
/// with `pthread_kill`; the self-pipe has no such path.
enum SignalStream {
    /// The signals a command can be asked to end by.
    static let signals: [Int32] = [SIGINT, SIGTERM]

    /// Catches `SIGINT` and `SIGTERM` from now on (again calls do nothing). Call it after
    /// ``Console/standard(environment:)``, which gives closed standard descriptors to
    /// `/dev/null`, so the signal pipe cannot take one. Without a pipe or its thread (no
    /// descriptor or thread left) the signals keep their default action: they end the process.
    static func install() {
        _ = hub
    }

    /// The first signal caught, once there was one.
    static var caught: Int32? { hub?.caught }

    /// Calls `action` once with the first signal caught: at once (on the caller's thread) if it
    /// was caught already, else on the signals' thread when it is. `action` must not block.
    static func whenCaught(_ action: @escaping @Sendable (Int32) -> Void) {
        hub?.whenCaught(action)
    }

    /// The first signal caught, as a stream that yields it (at once if it was caught already)
    /// and finishes; without a pipe, a stream that finishes at once.
    static func termination() -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream(bufferingPolicy: .bufferingNewest(1))
        guard let hub else {
            continuation.finish()
            return stream
        }
        hub.whenCaught { signal in
            continuation.yield(signal)
            continuation.finish()
        }
        return stream
    }

    /// Each `SIGHUP` from now on (several before one is read count as one), for a command that
    /// reads its configuration again on it (`serve`). Until a command asks, `SIGHUP` keeps its
    /// default action (it ends the process, as a terminal's hang-up should).
    static func reloads() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        guard let hub else {
            continuation.finish()
            return stream
        }
        hub.onReload { continuation.yield() }
        return stream
    }

    /// The pipe, its thread and the handlers, made once per process.
    private static let hub: Hub? = Hub()

    /// Keeps the first signal read from the pipe and hands it to every action waiting for it.
    private final class Hub: Sendable {
        private struct State {
            var caught: Int32?
            /// Called once, with the first signal; one per caller of `whenCaught`, which only
            /// the process's few waits on its end are.
            var actions: [@Sendable (Int32) -> Void] = []
            /// Called on every `SIGHUP`, once one is installed.
            var reloadActions: [@Sendable () -> Void] = []
        }

        private let state = LockedValue(State())

        init?() {
            var descriptors: [Int32] = [-1, -1]
            guard pipe(&descriptors) == 0 else { return nil }
            let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
            for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            // A full pipe drops the byte rather than block the handler: the signals before it
            // already wait to be read.
            _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
            do throws(LoopThread.Failure) {
                // The hub lives as long as the process: its thread holds it.
                try LoopThread.start { [self] in readSignals(from: readEnd) }
            } catch {
                close(readEnd)
                close(writeEnd)
                return nil
            }
            signalPipeWriteEnd = writeEnd
            for number in SignalStream.signals { Self.install(number) }
        }

        var caught: Int32? { state.withLock { $0.caught } }

        /// Calls `action` on every `SIGHUP` from now on; the first call installs its handler.
        func onReload(_ action: @escaping @Sendable () -> Void) {
            let first = state.withLock { state -> Bool in
                state.reloadActions.append(action)
                return state.reloadActions.count == 1
            }
            if first { setAction(SIGHUP, reloadPipeHandler, flags: SA_RESTART) }
        }

        func whenCaught(_ action: @escaping @Sendable (Int32) -> Void) {
            let caught = state.withLock { state -> Int32? in
                if state.caught == nil { state.actions.append(action) }
                return state.caught
            }
            if let caught { action(caught) }
        }

        /// The signals' thread: each signal's number as the handler writes it, for the life of
        /// the process.
        private func readSignals(from readEnd: Int32) {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count == 1 {
                    deliver(Int32(byte))
                } else if count == 0 || errno != EINTR {
                    return
                }
            }
        }

        private func deliver(_ signal: Int32) {
            if signal == SIGHUP {
                for action in state.withLock({ $0.reloadActions }) { action() }
                return
            }
            let actions = state.withLock { state -> [@Sendable (Int32) -> Void] in
                guard state.caught == nil else { return [] }
                state.caught = signal
                defer { state.actions = [] }
                return state.actions
            }
            for action in actions { action(signal) }
        }

        private static func install(_ number: Int32) {
            // Neither signal interrupts the handler: a second one waits for it, then finds the
            // default action.
            setAction(number, signalPipeHandler, blocking: SignalStream.signals, flags: SA_RESTART)
        }
    }
}

/// The write end of the signal pipe; set once, before the handlers are installed.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The handler (async-signal-safe calls only): both signals fatal again, so the next one ends
/// the process at once, then the signal's number into the pipe.
private func signalPipeHandler(_ number: Int32) {
    let saved = errno
    setAction(SIGINT, SIG_DFL)
    setAction(SIGTERM, SIG_DFL)
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}

/// The `SIGHUP` handler (async-signal-safe calls only): its number into the pipe; it stays
/// installed, so every `SIGHUP` is a request to read the configuration again.
private func reloadPipeHandler(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}

/// `sigaction` for `number`: `handler`, with `blocking` blocked while it runs (only
/// async-signal-safe calls: the handler uses it too).
private func setAction(
    _ number: Int32, _ handler: (@convention(c) (Int32) -> Void)?, blocking: [Int32] = [], flags: Int32 = 0
) {
    var action = sigaction()
    #if canImport(Darwin)
    action.__sigaction_u.__sa_handler = handler
    #else
    action.__sigaction_handler.sa_handler = handler
    #endif
    sigemptyset(&action.sa_mask)
    for other in blocking { sigaddset(&action.sa_mask, other) }
    action.sa_flags = flags
    sigaction(number, &action, nil)
}
