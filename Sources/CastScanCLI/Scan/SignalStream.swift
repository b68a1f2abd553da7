import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's termination signals as streams: `SIGINT` and `SIGTERM` stop being fatal and
/// arrive here instead, so a command can end cleanly.
///
/// The handler is installed with `sigaction` before ``termination()`` returns, so a signal that
/// comes right after is never lost. It only writes the signal's number to a pipe
/// (async-signal-safe), and a dispatch read source on the pipe hands it to every open stream.
///
/// Not a dispatch signal source: with those, 1 of about 240 watches in a full test run hung
/// once it had its SIGTERM and never exited (cause not found). On Linux such a source reads a
/// `signalfd` on libdispatch's event thread, while the main thread of an async program waits
/// in `sigsuspend` with every signal unblocked, and libdispatch passes a signal caught there on
/// with `pthread_kill`; the self-pipe has no such path.
enum SignalStream {
    /// The signals a command can be asked to end by.
    static let signals: [Int32] = [SIGINT, SIGTERM]

    /// A stream of `SIGINT` and `SIGTERM`, caught from now on.
    static func termination() -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        guard let hub else {
            // No pipe: the signals keep their default action (they end the process).
            continuation.finish()
            return stream
        }
        let token = hub.add(continuation)
        continuation.onTermination = { _ in hub.remove(token) }
        return stream
    }

    /// The pipe, its read source and the handlers, made once per process.
    private static let hub: Hub? = Hub()

    /// Hands each signal read from the pipe to every stream still open. Unchecked: the read
    /// source is only kept (dispatch sources may be used from any thread); the rest is a Mutex
    /// and an Atomic.
    private final class Hub: @unchecked Sendable {
        private let streams = Mutex<[Int: AsyncStream<Int32>.Continuation]>([:])
        private let next = Atomic<Int>(0)
        private let source: any DispatchSourceRead

        init?() {
            var descriptors: [Int32] = [-1, -1]
            guard pipe(&descriptors) == 0 else { return nil }
            let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
            for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
            // A full pipe drops the byte rather than block the handler: the signals before it
            // already wait to be read.
            _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
            signalPipeWriteEnd = writeEnd
            source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: DispatchQueue(label: "cast-scan.signals"))
            // The hub lives as long as the process: the handler may hold it.
            source.setEventHandler { [self] in
                var bytes = [UInt8](repeating: 0, count: 64)
                while true {
                    let count = bytes.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                    guard count > 0 else { break }
                    let open = self.streams.withLock { Array($0.values) }
                    for byte in bytes[..<count] {
                        for stream in open { stream.yield(Int32(byte)) }
                    }
                }
            }
            source.resume()
            for number in SignalStream.signals { Self.install(number) }
        }

        func add(_ continuation: AsyncStream<Int32>.Continuation) -> Int {
            let token = next.add(1, ordering: .relaxed).newValue
            streams.withLock { $0[token] = continuation }
            return token
        }

        func remove(_ token: Int) {
            _ = streams.withLock { $0.removeValue(forKey: token) }
        }

        private static func install(_ number: Int32) {
            var action = sigaction()
            #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = signalPipeHandler
            #else
            action.__sigaction_handler.sa_handler = signalPipeHandler
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }
}

/// The write end of the signal pipe; set once, before the handlers are installed.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// The handler: the signal's number into the pipe, nothing else (async-signal-safe).
private func signalPipeHandler(_ number: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: number)
    _ = write(signalPipeWriteEnd, &byte, 1)
    errno = saved
}
