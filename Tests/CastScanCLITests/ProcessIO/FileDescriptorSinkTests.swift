import CastDiscovery
import Foundation
import Synchronization
import Testing

@testable import CastScanCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A stream's writer: its own thread and a bounded queue, so writing never waits for a reader.
@Suite("FileDescriptorSink", .timeLimit(.minutes(10)))
struct FileDescriptorSinkTests {
    /// A pipe whose write end a sink writes and whose read end the test reads, or leaves full.
    final class Pipe: Sendable {
        let readEnd: Int32
        let writeEnd: Int32
        private let readOpen = Atomic(true)

        init() throws {
            // A reader that goes away must show as EPIPE, not end the test process.
            signal(SIGPIPE, SIG_IGN)
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
            // Closed on exec: a child another test spawns must not keep the read end open.
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            (readEnd, writeEnd) = (ends[0], ends[1])
            _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
        }

        /// The write end stays open: a sink's thread writes its descriptor for the life of the
        /// process (as it does standard output), and may still hold a piece when the test ends
        /// (one refused, abandoned, or taken just before). Closed, the number would be given to
        /// the next pipe a test makes, and that late piece written into it (seen in a parallel
        /// run: a line of another test's among "event N"). With the read end closed, such a
        /// write fails quietly with EPIPE.
        deinit {
            closeReadEnd()
        }

        /// The reader goes away.
        func closeReadEnd() {
            if readOpen.exchange(false, ordering: .relaxed) { close(readEnd) }
        }

        /// Fills the pipe to the brim, so the next write blocks; returns the bytes put in.
        func fill() -> Int {
            _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
            defer { _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) & ~O_NONBLOCK) }
            var total = 0
            // Blocks first, then single bytes for the room a block did not fit in.
            for size in [4096, 1] {
                let block = [UInt8](repeating: UInt8(ascii: "."), count: size)
                while true {
                    let written = block.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
                    guard written > 0 else { break }
                    total += written
                }
            }
            return total
        }

        /// What the pipe holds now.
        func readAvailable() -> [UInt8] {
            var all: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                guard count > 0 else { return all }
                all += buffer[..<count]
            }
        }

        /// Reads until `sink` has written what it was given and the pipe is empty.
        func readAll(from sink: FileDescriptorSink) async -> [UInt8] {
            var all: [UInt8] = []
            repeat {
                all += readAvailable()
            } while await !FileDescriptorSinkTests.isIdle(sink, within: .milliseconds(5))
            return all + readAvailable()
        }
    }

    /// Whether `sink` has nothing left to write, or gets there within `time`.
    static func isIdle(_ sink: FileDescriptorSink, within time: DispatchTimeInterval) async -> Bool {
        await withCheckedContinuation { continuation in
            let once = LockedValue<CheckedContinuation<Bool, Never>?>(continuation)
            sink.whenWritten { once.withLock { $0.take() }?.resume(returning: true) }
            DispatchQueue.global().asyncAfter(deadline: .now() + time) {
                once.withLock { $0.take() }?.resume(returning: false)
            }
        }
    }

    static func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("everything written arrives whole and in order")
    func inOrder() async throws {
        let pipe = try Pipe()
        let sink = FileDescriptorSink(descriptor: pipe.writeEnd, name: "standard output", bound: .document)
        let expected = (0..<5000).map { "line \($0)" }
        for line in expected { sink.write(line + "\n") }
        let received = await pipe.readAll(from: sink)
        #expect(Self.lines(received) == expected)
        #expect(sink.failure == nil)
        #expect(sink.droppedLines == 0)
    }

    @Test("a stalled reader never holds the writer; the oldest lines go, each batch said once, the rest arrive whole")
    func stalledLiveLines() async throws {
        let pipe = try Pipe()
        let notes = CapturedText()
        let sink = FileDescriptorSink(
            descriptor: pipe.writeEnd, name: "standard output", bound: .init(bytes: 32 << 10, overflow: .dropOldest),
            notes: notes)
        let count = 20_000
        let started = ContinuousClock.now
        for index in 0..<count { sink.write("event \(index) " + String(repeating: "x", count: 40) + "\n") }
        let writing = ContinuousClock.now - started
        // Writes that waited for this reader, which reads only after them, would never end: the
        // bound is only the message, far above what a loaded machine takes.
        #expect(writing < .seconds(60), "the writes waited for the reader: \(writing)")

        let received = Self.lines(await pipe.readAll(from: sink))
        #expect(sink.droppedLines > 0)
        #expect(received.count + sink.droppedLines == count, "every line is either received or counted")
        // What arrives is whole lines, oldest first: a run at the start (before the pipe was
        // full), then the newest, none torn.
        let numbers = received.compactMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } }
        #expect(numbers.count == received.count)
        #expect(numbers == numbers.sorted())
        #expect(numbers.last == count - 1, "the newest line is kept")
        // The notes say the drops (the end of the process says the total).
        let said = Self.noted(notes)
        #expect(said.count >= 1, "\(notes.contents)")
        #expect(said.reduce(0, +) > 0 && said.reduce(0, +) <= sink.droppedLines, "\(notes.contents)")
    }

    /// The counts of the notes of drops in `notes`, each line checked.
    static func noted(_ notes: CapturedText) -> [Int] {
        let prefix = "cast-scan: standard output is not being read: dropped "
        return notes.contents.split(separator: "\n").map { line in
            #expect(line.hasPrefix(prefix), "\(line)")
            return Int(line.dropFirst(prefix.count).split(separator: " ").first ?? "") ?? 0
        }
    }

    @Test(
        "drops are said at most once per interval: with a long one, many batches make one note; with none, each is said",
        arguments: [Duration.seconds(3600), .zero])
    func noteRate(interval: Duration) async throws {
        let pipe = try Pipe()
        let notes = CapturedText()
        let sink = FileDescriptorSink(
            descriptor: pipe.writeEnd, name: "standard output", bound: .init(bytes: 200, overflow: .dropOldest),
            notes: notes,
            noteInterval: interval)
        // Five times: fill the pipe, overflow the queue, let it all move.
        for batch in 0..<5 {
            _ = pipe.fill()
            for index in 0..<40 { sink.write("batch \(batch) line \(index)\n") }
            _ = await pipe.readAll(from: sink)
        }
        let said = Self.noted(notes)
        if interval == .zero {
            // At least one a batch (two if the writer took a line after the first drops).
            #expect(said.count >= 5, "\(notes.contents)")
            #expect(said.reduce(0, +) == sink.droppedLines, "every batch said")
        } else {
            #expect(said.count == 1, "\(notes.contents)")
            #expect(sink.droppedLines > said.reduce(0, +), "later batches wait for the next note")
        }
    }

    @Test("standard error says its own drops in its own stream")
    func notesInStream() async throws {
        let pipe = try Pipe()
        let sink = FileDescriptorSink(
            descriptor: pipe.writeEnd, name: "standard error", bound: .init(bytes: 100, overflow: .dropOldest))
        let filled = pipe.fill()
        for index in 0..<50 { sink.write("message \(index)\n") }
        let received = await pipe.readAll(from: sink)
        let text = Self.lines(Array(received.dropFirst(filled)))
        let note = try #require(
            text.first { $0.hasPrefix("cast-scan: standard error is not being read: dropped ") }, "\(text)")
        #expect(note.hasSuffix(" lines"))
        #expect(text.last == "message 49")
        #expect(text.filter { $0.hasPrefix("message ") }.count + sink.droppedLines == 50)
    }

    @Test("one-shot output beyond its bound fails with ENOBUFS rather than lose a part unsaid")
    func documentBound() async throws {
        let pipe = try Pipe()
        let sink = FileDescriptorSink(
            descriptor: pipe.writeEnd, name: "standard output", bound: .init(bytes: 1000, overflow: .refuse))
        _ = pipe.fill()
        for _ in 0..<20 { sink.write(String(repeating: "y", count: 199) + "\n") }
        #expect(sink.failure == .failed(ENOBUFS))
        #expect(sink.failure?.message == String(cString: strerror(ENOBUFS)))
    }

    @Test(
        "abandoning a stalled stream drops what waits, the line in write(2) too, says so once, and takes nothing more")
    func abandon() async throws {
        let pipe = try Pipe()
        let notes = CapturedText()
        let sink = FileDescriptorSink(
            descriptor: pipe.writeEnd, name: "standard output", bound: .document, notes: notes)
        _ = pipe.fill()
        sink.write("one\n")
        sink.write("two\nthree\n")
        let dropped = try #require(sink.abandon())
        #expect(dropped.now == 3 && dropped.total == 3)
        #expect(
            notes.contents
                == "cast-scan: standard output was not read: dropped 3 lines in all, 3 of them still waiting at the end\n"
        )
        #expect(sink.abandon() == nil, "a sink is abandoned once")
        #expect(notes.contents.split(separator: "\n").count == 1, "and says so once")
        sink.write("four\n")
        // Idle at once: the process does not wait for what can no longer be written.
        #expect(await Self.isIdle(sink, within: .milliseconds(1)))
        #expect(sink.failure == nil)
    }

    @Test("a reader that went away is a quiet failure; a descriptor closed at start fails with EBADF")
    func failures() async throws {
        let pipe = try Pipe()
        let notes = CapturedText()
        let sink = FileDescriptorSink(
            descriptor: pipe.writeEnd, name: "standard output", bound: .liveLines, notes: notes)
        pipe.closeReadEnd()
        sink.write("gone\n")
        while await !Self.isIdle(sink, within: .milliseconds(100)) {}
        #expect(sink.failure == .closed)
        sink.write("after\n")
        #expect(notes.contents.isEmpty)

        let closed = FileDescriptorSink(descriptor: 1, name: "standard output", bound: .document, closedAtStart: true)
        #expect(closed.failure == .failed(EBADF))
        closed.write("nothing\n")
        #expect(closed.failure == .failed(EBADF))
    }

    @Test(
        "a regular file is told from a pipe: watch's lines into a file wait within a document's bound, into a pipe the live bound"
    )
    func regularFile() throws {
        let directory = try TestDirectory()
        let descriptor = open(directory.path("out.jsonl"), O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        #expect(FileDescriptorSink(descriptor: descriptor, name: "standard output", bound: .document).isRegularFile)
        let pipe = try Pipe()
        #expect(!FileDescriptorSink(descriptor: pipe.writeEnd, name: "standard output", bound: .document).isRegularFile)
        #expect(OutputQueue.Bound.liveLinesToFile.bytes == OutputQueue.Bound.document.bytes)
        #expect(OutputQueue.Bound.liveLinesToFile.overflow == .dropOldest)
    }
}
