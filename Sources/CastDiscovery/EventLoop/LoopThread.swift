#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of its own for a backend's blocking loop (poll on sockets or a daemon connection),
/// which would otherwise hold one of the few threads of the concurrency pool or of Dispatch.
package enum LoopThread {
    /// Why no thread was started: the system's reason.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        package var reason: String
        package var description: String { "cannot start a thread: \(reason)" }
    }

    /// Runs `body` on a new detached thread.
    package static func start(_ body: @escaping @Sendable () -> Void) throws(Failure) {
        let box = Unmanaged.passRetained(Job(body: body))
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { argument in
                #if canImport(Darwin)
                let job = Unmanaged<Job>.fromOpaque(argument).takeRetainedValue()
                #else
                let job = Unmanaged<Job>.fromOpaque(argument!).takeRetainedValue()
                #endif
                job.run()
                return nil
            }, box.toOpaque())
        guard result == 0 else {
            box.release()
            throw Failure(reason: systemErrorMessage(result))
        }
        pthread_detach(thread)
    }

    private final class Job: Sendable {
        let body: @Sendable () -> Void

        init(body: @escaping @Sendable () -> Void) {
            self.body = body
        }

        func run() {
            body()
        }
    }
}
