import CastDiscovery
#if canImport(Glibc)
import Glibc
#endif

/// Standard input as a stream of lines, read on a thread of its own (a blocking read holds no
/// task). A line longer than the limit comes as ``Line/tooLong``; bytes that are not UTF-8 are
/// replaced. At most ``capacity`` lines wait unread: the reading thread then waits for room, so
/// no line is lost and memory stays bounded.
enum StandardInputLines {
    /// What the stream gives.
    enum Line: Sendable, Hashable {
        case text(String)
        case tooLong
        /// Reading failed: the system's reason.
        case failed(String)
    }

    static let capacity = 1024

    static func stream(limit: Int) -> AsyncStream<Line> {
        let (stream, continuation) = AsyncStream.makeStream(of: Line.self, bufferingPolicy: .bufferingOldest(capacity))
        do throws(LoopThread.Failure) {
            try LoopThread.start {
                /// False once the reader is gone.
                func send(_ line: Line) -> Bool {
                    while true {
                        switch continuation.yield(line) {
                        case .enqueued: return true
                        case .terminated: return false
                        case .dropped: usleep(10_000)  // full: wait for the reader
                        @unknown default: return false
                        }
                    }
                }
                var pending: [UInt8] = []
                var skipping = false
                var buffer = [UInt8](repeating: 0, count: 4096)
                reading: while true {
                    let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                    if count < 0 {
                        if errno == EINTR { continue }
                        _ = send(.failed(systemErrorMessage(errno)))
                        break
                    }
                    if count == 0 { break }
                    for byte in buffer[..<count] {
                        if byte == UInt8(ascii: "\n") {
                            let line: Line = skipping ? .tooLong : .text(String(decoding: pending, as: UTF8.self))
                            pending = []
                            skipping = false
                            guard send(line) else { break reading }
                        } else if !skipping {
                            pending.append(byte)
                            if pending.count > limit { skipping = true; pending = [] }
                        }
                    }
                }
                if skipping {
                    _ = send(.tooLong)
                } else if !pending.isEmpty {
                    _ = send(.text(String(decoding: pending, as: UTF8.self)))
                }
                continuation.finish()
            }
        } catch {
            continuation.yield(.failed("\(error)"))
            continuation.finish()
        }
        return stream
    }
}
