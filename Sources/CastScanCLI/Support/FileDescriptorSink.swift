#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CastDiscovery
import Synchronization

/// Text written to an open file descriptor with `write(2)`, whole or not at all: partial writes
/// and interruptions are resumed, a descriptor left non-blocking is waited on, and the first
/// real failure is recorded instead of trapping.
final class FileDescriptorSink: TextSink {
    private let descriptor: Int32
    private let state: Mutex<OutputFailure?>

    /// A sink for `descriptor`; `closedAtStart` when it was closed when the process started
    /// (it then fails on the first write, with `EBADF`).
    init(descriptor: Int32, closedAtStart: Bool = false) {
        self.descriptor = descriptor
        state = Mutex(closedAtStart ? .failed(EBADF) : nil)
    }

    var failure: OutputFailure? { state.withLock { $0 } }

    func write(_ text: String) {
        state.withLock { failure in
            guard failure == nil else { return }
            var bytes = Array(text.utf8)
            failure = bytes.withUnsafeMutableBytes { writeAll($0) }
        }
    }

    private func writeAll(_ buffer: UnsafeMutableRawBufferPointer) -> OutputFailure? {
        var offset = 0
        while offset < buffer.count {
            let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written > 0 {
                offset += written
                continue
            }
            let code = written < 0 ? errno : EIO
            switch code {
            case EINTR:
                continue
            case EAGAIN, EWOULDBLOCK:
                var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, -1)
            case EPIPE:
                return .closed
            default:
                return .failed(code)
            }
        }
        return nil
    }
}
