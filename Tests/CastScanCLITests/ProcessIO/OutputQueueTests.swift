import Testing

@testable import CastScanCLI

/// The bounded queue of text waiting for a stream's reader.
@Suite("OutputQueue")
struct OutputQueueTests {
    static func piece(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Appends `text`, expecting it taken.
    static func push(_ queue: inout OutputQueue, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let taken = queue.append(piece(text))
        #expect(taken, "\(text) refused", sourceLocation: sourceLocation)
    }

    static func drain(_ queue: inout OutputQueue) -> [String] {
        var pieces: [String] = []
        while let piece = queue.next() { pieces.append(String(decoding: piece, as: UTF8.self)) }
        return pieces
    }

    @Test("a live stream drops its oldest lines to make room, counts them, and says each batch once")
    func dropOldest() {
        var queue = OutputQueue(bound: .init(bytes: 10, overflow: .dropOldest))
        for text in ["aa\n", "bb\n", "cc\n"] { Self.push(&queue, text) }
        #expect(queue.byteCount == 9)
        var batch = queue.takeDroppedLines()
        #expect(batch == 0)
        // 4 more bytes: "aa\n" must go (9 + 4 - 3 = 10).
        Self.push(&queue, "ddd\n")
        batch = queue.takeDroppedLines()
        #expect(batch == 1)
        batch = queue.takeDroppedLines()
        #expect(batch == 0, "a batch is taken once")
        // Two lines in one piece count as two.
        Self.push(&queue, "e\nf\ng\nh\ni\n")
        batch = queue.takeDroppedLines()
        #expect(batch == 3, "bb, cc and ddd went")
        #expect(queue.droppedLines == 4)
        #expect(Self.drain(&queue) == ["e\nf\ng\nh\ni\n"])
        #expect(queue.isEmpty && queue.byteCount == 0)
    }

    @Test("what comes out is in the order it went in, the newest kept, every line out or counted")
    func order() {
        var queue = OutputQueue(bound: .init(bytes: 100, overflow: .dropOldest))
        var out: [Int] = []
        for index in 0..<1000 {
            Self.push(&queue, "line \(index)\n")
            if index % 7 == 0, let first = queue.next() { out.append(Self.number(first)) }
            #expect(queue.byteCount <= 100)
        }
        while let piece = queue.next() { out.append(Self.number(piece)) }
        #expect(out == out.sorted() && Set(out).count == out.count, "\(out)")
        #expect(out.last == 999)
        #expect(out.count + queue.droppedLines == 1000)
    }

    static func number(_ piece: [UInt8]) -> Int {
        Int(String(decoding: piece, as: UTF8.self).dropFirst("line ".count).dropLast()) ?? -1
    }

    @Test("a piece larger than the whole bound is kept alone")
    func oversized() {
        var queue = OutputQueue(bound: .init(bytes: 4, overflow: .dropOldest))
        Self.push(&queue, "a\n")
        Self.push(&queue, "0123456789\n")
        #expect(queue.droppedLines == 1)
        #expect(Self.drain(&queue) == ["0123456789\n"])
    }

    @Test("a document refuses what does not fit and keeps all it has")
    func refuse() {
        var queue = OutputQueue(bound: .init(bytes: 8, overflow: .refuse))
        Self.push(&queue, "1234\n")
        let refused = !queue.append(Self.piece("5678\n"))
        #expect(refused)
        #expect(queue.droppedLines == 0)
        Self.push(&queue, "ab\n")  // what fits is still taken
        #expect(Self.drain(&queue) == ["1234\n", "ab\n"])
    }

    @Test("a smaller bound applies from the next piece")
    func tighterBound() {
        var queue = OutputQueue(bound: .document)
        for index in 0..<100 { Self.push(&queue, "\(index)\n") }
        queue.bound = .init(bytes: 6, overflow: .dropOldest)
        Self.push(&queue, "x\n")
        #expect(queue.byteCount <= 6)
        #expect(Self.drain(&queue).last == "x\n")
    }

    @Test("removing everything counts its lines, an unfinished last line too")
    func removeAll() {
        var queue = OutputQueue(bound: .document)
        Self.push(&queue, "a\nb\n")
        Self.push(&queue, "{\n  \"c\": 1")
        Self.push(&queue, "")  // empty text is taken and is nothing
        let removed = queue.removeAll()
        #expect(removed == 4)
        #expect(queue.isEmpty && queue.droppedLines == 4)
        #expect(OutputQueue.lines(in: []) == 0)
        #expect(OutputQueue.lines(in: Self.piece("no newline")) == 1)
    }
}
