import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's termination signals as a stream: `SIGINT` and `SIGTERM` stop being fatal and
/// arrive here instead, so a command can end cleanly.
///
/// Each signal is a dispatch signal source, and ``termination()`` returns only once both are
/// registered: a signal that comes right after is never lost. (On Linux libdispatch reads a
/// `signalfd` on its event thread; a signal delivered to another thread is caught by its
/// handler and raised again on that thread.)
///
/// On Linux, registering the source installs libdispatch's own handler for the signal, which
/// makes it non-fatal and hands it to the source; setting `SIG_IGN` afterwards would replace
/// that handler, and the kernel would then discard the signal before the source could see it
/// (every time, as the end-to-end tests showed: the main thread waits in `dispatch_main` with
/// no signal blocked). Only where the source leaves the disposition alone (kqueue, on Darwin)
/// is the signal ignored, once the source is in place.
enum SignalStream {
    /// The stream of `SIGINT` and `SIGTERM`, once both are caught.
    static func termination() async -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        let queue = DispatchQueue(label: "cast-scan.signals")
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
                source.setRegistrationHandler { registered.resume() }
                source.resume()
            }
            #if !os(Linux)
            signal(number, SIG_IGN)
            #endif
            sources.append(source)
        }
        let registered = Sources(sources)
        continuation.onTermination = { _ in registered.cancel() }
        return stream
    }

    /// The sources, kept until the stream ends. Dispatch sources may be cancelled from any thread.
    private final class Sources: @unchecked Sendable {
        let sources: [any DispatchSourceSignal]
        init(_ sources: [any DispatchSourceSignal]) { self.sources = sources }
        func cancel() { sources.forEach { $0.cancel() } }
    }
}
