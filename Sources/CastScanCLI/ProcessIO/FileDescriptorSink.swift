#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CastDiscovery
import Dispatch

/// Text for an open file descriptor, written by a thread of its own from a bounded
/// ``OutputQueue``: ``write(_:)`` only queues, so no caller ever waits for a slow or stalled
/// reader, and no lock is held while the descriptor is written.
///
/// The thread writes each piece whole (partial writes and interruptions resumed, a descriptor
/// left non-blocking waited on). The first real failure is recorded instead of trapping, and
/// later text is dropped. Lines the queue drops for a reader that is behind are said once per
/// batch (when the output moves again, at most once a second), on `notes` (standard error, for
/// standard output) or else in the stream itself.
final class FileDescriptorSink: TextSink {
    private struct State {
        var queue: OutputQueue
        var failure: OutputFailure?
        /// The lines of the piece in `write(2)` now that are not written whole yet; nil when no
        /// piece is.
        var writing: Int?
        /// The process is ending: nothing more is written.
        var abandoned = false
        /// Called once nothing waits to be written.
        var waiters: [@Sendable () -> Void] = []
        /// When drops were last said.
        var lastNote: ContinuousClock.Instant?

        var isIdle: Bool { abandoned || failure != nil || (writing == nil && queue.isEmpty) }

        mutating func takeWaitersIfIdle() -> [@Sendable () -> Void] {
            guard isIdle else { return [] }
            defer { waiters = [] }
            return waiters
        }
    }

    private let descriptor: Int32
    /// The stream's name in notes: "standard output".
    private let name: String
    private let notes: (any TextSink)?
    /// The shortest time between two notes of drops: a reader just slower than the events gets
    /// a line a second, not one per line.
    private let noteInterval: Duration
    /// What ``noteInterval`` is kept with.
    private let clock: any DiscoveryClock
    private let state: LockedValue<State>
    /// One signal per piece queued: the thread's cue.
    private let queued = DispatchSemaphore(value: 0)

    /// A sink for `descriptor`, called `name` in its notes, queueing up to `bound`.
    /// `closedAtStart` when the descriptor was closed when the process started (the sink then
    /// fails on the first write, with `EBADF`). Notes of drops go to `notes` (nil: the stream
    /// itself), at most one per `noteInterval` on `clock`.
    init(
        descriptor: Int32, name: String, bound: OutputQueue.Bound, closedAtStart: Bool = false,
        notes: (any TextSink)? = nil,
        noteInterval: Duration = .seconds(1), clock: any DiscoveryClock = ContinuousClock()
    ) {
        self.descriptor = descriptor
        self.name = name
        self.notes = notes
        self.noteInterval = noteInterval
        self.clock = clock
        state = LockedValue(State(queue: OutputQueue(bound: bound), failure: closedAtStart ? .failed(EBADF) : nil))
        guard !closedAtStart else { return }
        do throws(LoopThread.Failure) {
            try LoopThread.start { [self] in run() }
        } catch {
            state.withLock { $0.failure = .failed(EAGAIN) }
        }
    }

    var failure: OutputFailure? { state.withLock { $0.failure } }

    func write(_ text: String) {
        let bytes = Array(text.utf8)
        let accepted = state.withLock { state -> Bool in
            guard state.failure == nil, !state.abandoned else { return false }
            if state.queue.append(bytes) { return true }
            // Refused: more than a document's bound waits for a reader that does not read.
            state.failure = .failed(ENOBUFS)
            _ = state.queue.removeAll()
            return false
        }
        if accepted { queued.signal() }
    }

    /// Whether the descriptor is a regular file: always read, so its writer is only ever late
    /// (a busy machine), never stalled by a reader.
    var isRegularFile: Bool {
        var info = stat()
        return fstat(descriptor, &info) == 0 && FileKind(mode: info.st_mode) == .regular
    }

    /// Applies `bound` from the next piece on (`watch` bounds its lines tighter, dropping the oldest).
    func setBound(_ bound: OutputQueue.Bound) {
        state.withLock { $0.queue.bound = bound }
    }

    /// Calls `action` once the text given so far is written (or can no longer be): at once if
    /// it is. It runs on the writing thread or the caller's, so it must not block.
    func whenWritten(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.isIdle { return true }
            state.waiters.append(action)
            return false
        }
        if now { action() }
    }

    /// Lines dropped in all: for a reader that was behind, and by ``abandon()``.
    var droppedLines: Int { state.withLock { $0.queue.droppedLines } }

    /// Drops what still waits to be written and takes no more text (the process is ending);
    /// says on `notes` how many lines were dropped in all, if any (nothing after a failure, which
    /// is said on its own). Returns the lines dropped now (with a piece still in `write(2)`,
    /// which will not be written whole) and in all, or nil if the sink was abandoned already.
    ///
    /// The note is queued before the lock is let go, so a caller that comes second and waits for
    /// `notes` waits for it too.
    @discardableResult
    func abandon() -> (now: Int, total: Int)? {
        let (result, waiters) = state.withLock { state -> ((now: Int, total: Int)?, [@Sendable () -> Void]) in
            guard !state.abandoned else { return (nil, []) }
            state.abandoned = true
            guard state.failure == nil else { return ((0, state.queue.droppedLines), state.takeWaitersIfIdle()) }
            let now = state.queue.removeAll() + (state.writing ?? 0)
            let total = state.queue.droppedLines + (state.writing ?? 0)
            if total > 0 {
                let waiting = now > 0 ? ", \(now) of them still waiting at the end" : ""
                notes?.write(
                    "cast-scan: \(name) was not read: dropped \(total) line\(total == 1 ? "" : "s") in all\(waiting)\n")
            }
            return ((now, total), state.takeWaitersIfIdle())
        }
        for waiter in waiters { waiter() }
        return result
    }

    /// The writing thread: each queued piece in turn, for the life of the process.
    private func run() {
        while true {
            queued.wait()
            // The next piece, and the note of the lines dropped before it (in the stream itself
            // when there is no other place for notes).
            let taken = state.withLock { state -> (bytes: [UInt8], note: String?)? in
                guard !state.abandoned, state.failure == nil, var bytes = state.queue.next() else { return nil }
                var note: String?
                let now = clock.now
                if state.lastNote.map({ now - $0 >= noteInterval }) ?? true,
                    let said = dropNote(state.queue.takeDroppedLines())
                {
                    note = said
                    state.lastNote = now
                }
                if notes == nil, let inStream = note {
                    bytes = Array(inStream.utf8) + bytes
                    note = nil
                }
                state.writing = OutputQueue.lines(in: bytes)
                return (bytes, note)
            }
            var failure: OutputFailure?
            if let (piece, note) = taken {
                if let note { notes?.write(note) }
                var bytes = piece
                failure = bytes.withUnsafeMutableBytes { writeAll($0) }
            }
            let waiters = state.withLock { state -> [@Sendable () -> Void] in
                state.writing = nil
                if let failure, state.failure == nil {
                    // Nothing more can be written: what waits is dropped quietly, as the failure
                    // is said once (a closed pipe: not at all).
                    state.failure = failure
                    _ = state.queue.removeAll()
                }
                return state.takeWaitersIfIdle()
            }
            for waiter in waiters { waiter() }
        }
    }

    /// The line that says `dropped` lines were dropped; nil for none.
    private func dropNote(_ dropped: Int) -> String? {
        dropped > 0 ? "cast-scan: \(name) is not being read: dropped \(dropped) line\(dropped == 1 ? "" : "s")\n" : nil
    }

    private func writeAll(_ buffer: UnsafeMutableRawBufferPointer) -> OutputFailure? {
        var offset = 0
        while offset < buffer.count {
            let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written > 0 {
                let newlines = buffer[offset..<(offset + written)].reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
                if newlines > 0 { state.withLock { $0.writing = $0.writing.map { max(0, $0 - newlines) } } }
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
