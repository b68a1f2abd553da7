import Dispatch
import Foundation

/// The process's termination signals as a stream: `SIGINT` and `SIGTERM` stop being fatal and
/// arrive here instead, so a command can end cleanly.
enum SignalStream {
    static func termination() -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        let sources = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
        let box = SourceBox(sources)
        continuation.onTermination = { _ in box.cancel() }
        return stream
    }

    /// Dispatch sources may be cancelled from any thread.
    private final class SourceBox: @unchecked Sendable {
        let sources: [DispatchSourceSignal]
        init(_ sources: [DispatchSourceSignal]) { self.sources = sources }
        func cancel() { sources.forEach { $0.cancel() } }
    }
}
