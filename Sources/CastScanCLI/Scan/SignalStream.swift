import Dispatch
import Foundation

/// The process's termination signals as a stream: `SIGINT` and `SIGTERM` stop being fatal and
/// arrive here instead, so a command can end cleanly.
///
/// The handler is installed with `sigaction` before this returns, so a signal that comes right
/// after is never lost; it only writes the signal number to a pipe (async-signal-safe), and a
/// reader thread turns the pipe into the stream.
enum SignalStream {
    static func termination() -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return stream }
        signalPipe = fds[1]
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipe, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        let readEnd = fds[0]
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) == 1 { continuation.yield(Int32(byte)) }
        }
        return stream
    }
}

/// The write end of the signal pipe; set once, before the handlers are installed.
nonisolated(unsafe) private var signalPipe: Int32 = -1
