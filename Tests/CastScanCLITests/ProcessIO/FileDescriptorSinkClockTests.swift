import CastDiscovery
import CastTestSupport
import Testing

@testable import CastScanCLI

/// The interval between notes of drops, kept on a ``ManualClock``: the rate limit is seen
/// without waiting for it.
extension FileDescriptorSinkTests {
    /// The lines of `notes`, each a note of drops.
    static func noteCount(_ notes: CapturedText) -> Int {
        notes.contents.split(separator: "\n").count
    }

    @Test("drops are said once per interval on the sink's clock: none while it stands still, one when it gets there")
    func noteIntervalOnClock() async throws {
        let interval = Duration.seconds(3600)
        let clock = ManualClock()
        let pipe = try Pipe()
        let notes = CapturedText()
        let sink = FileDescriptorSink(
            descriptor: pipe.writeEnd, name: "standard output", bound: .init(bytes: 200, overflow: .dropOldest),
            notes: notes, noteInterval: interval, clock: clock)
        /// Fills the pipe, overflows the queue, and lets it all move.
        func overflow(_ batch: Int) async {
            _ = pipe.fill()
            for index in 0..<40 { sink.write("batch \(batch) line \(index)\n") }
            _ = await pipe.readAll(from: sink)
        }

        // The first drops are said at once.
        await overflow(0)
        #expect(Self.noted(notes).count == 1, "\(notes.contents)")
        #expect(sink.droppedLines > 0)

        // More drops while the clock stands still: all written, nothing said.
        await overflow(1)
        let said = Self.noted(notes).reduce(0, +)
        #expect(Self.noted(notes).count == 1, "\(notes.contents)")
        #expect(sink.droppedLines > said, "the second batch's drops wait for the next note")

        // Just short of the interval: the next line moves the output, still without a note.
        clock.advance(by: interval - .milliseconds(1))
        sink.write("short of the interval\n")
        _ = await pipe.readAll(from: sink)
        #expect(Self.noted(notes).count == 1, "\(notes.contents)")

        // The interval reached: the next line brings the note of what was dropped since.
        clock.advance(by: .milliseconds(1))
        sink.write("at the interval\n")
        let noted = await Eventually.wait(timeout: .seconds(60)) { Self.noteCount(notes) == 2 }
        #expect(noted, "\(notes.contents)")
        let counts = Self.noted(notes)
        #expect(counts.count == 2 && counts.last == sink.droppedLines - said, "\(notes.contents)")
        #expect(counts.reduce(0, +) == sink.droppedLines, "every drop said")
    }
}
