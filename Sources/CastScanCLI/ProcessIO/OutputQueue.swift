/// The text given to a stream and not yet written, bounded in bytes.
///
/// Each piece is kept whole (a line, or a document), so what is dropped is whole pieces too.
/// What happens when a new piece does not fit is the bound's ``Overflow`` policy: a stream of
/// lines drops its oldest pieces, counted in lines; a document refuses the piece.
struct OutputQueue: Sendable {
    /// What to do with a piece that does not fit.
    enum Overflow: Sendable, Hashable {
        /// Make room by dropping the oldest pieces (a live stream of lines: the newest matter
        /// most). A piece larger than the whole bound is kept alone.
        case dropOldest
        /// Refuse the piece: nothing already queued is lost (one-shot output, where a gap
        /// would corrupt the document).
        case refuse
    }

    /// How much a queue holds, and what it does beyond that.
    struct Bound: Sendable, Hashable {
        /// The most bytes queued (at least 1).
        var bytes: Int
        var overflow: Overflow

        /// One-shot output (a table, a JSON document): far more than any such output, so all
        /// of it waits for a slow reader; beyond that the stream fails.
        static let document = Bound(bytes: 64 << 20, overflow: .refuse)
        /// A live stream of lines (`watch`): a few seconds of a busy network; a reader slower
        /// than that loses the oldest lines.
        static let liveLines = Bound(bytes: 256 << 10, overflow: .dropOldest)
        /// A live stream of lines into a regular file, which is always read: only a writer that
        /// has not had the CPU is behind, so it is given as much room as a document before the
        /// oldest lines go (measured: 30 of 600 lines dropped at the live bound when a watch
        /// wrote a burst to a file during a full parallel test run on two cores).
        static let liveLinesToFile = Bound(bytes: 64 << 20, overflow: .dropOldest)
        /// Messages on standard error: the oldest go first when nobody reads them.
        static let messages = Bound(bytes: 64 << 10, overflow: .dropOldest)
    }

    /// The bound; a smaller one applies from the next piece on.
    var bound: Bound

    private var pieces: [[UInt8]] = []
    private var head = 0
    /// The bytes queued now.
    private(set) var byteCount = 0
    /// Lines dropped since ``takeDroppedLines()`` last took them.
    private var droppedSinceTaken = 0
    /// Lines dropped in all.
    private(set) var droppedLines = 0

    /// An empty queue.
    init(bound: Bound) {
        self.bound = bound
    }

    /// Whether nothing is queued.
    var isEmpty: Bool { head == pieces.count }

    /// Queues `piece`; false when the policy refused it (nothing is dropped then).
    mutating func append(_ piece: [UInt8]) -> Bool {
        guard !piece.isEmpty else { return true }
        let limit = max(1, bound.bytes)
        if byteCount + piece.count > limit {
            switch bound.overflow {
            case .refuse:
                return false
            case .dropOldest:
                while !isEmpty, byteCount + piece.count > limit {
                    let lines = Self.lines(in: removeFirst())
                    droppedSinceTaken += lines
                    droppedLines += lines
                }
            }
        }
        pieces.append(piece)
        byteCount += piece.count
        return true
    }

    /// The oldest piece, removed from the queue; nil when it is empty.
    mutating func next() -> [UInt8]? {
        isEmpty ? nil : removeFirst()
    }

    /// Drops everything queued; returns how many lines that was (counted in ``droppedLines``).
    mutating func removeAll() -> Int {
        var lines = 0
        while !isEmpty { lines += Self.lines(in: removeFirst()) }
        droppedLines += lines
        return lines
    }

    /// The lines dropped to make room since the last call, so each batch of drops is said once.
    mutating func takeDroppedLines() -> Int {
        defer { droppedSinceTaken = 0 }
        return droppedSinceTaken
    }

    private mutating func removeFirst() -> [UInt8] {
        let piece = pieces[head]
        pieces[head] = []
        head += 1
        byteCount -= piece.count
        // Compact once the removed half outweighs the rest, so the array stays bounded too.
        if head == pieces.count {
            pieces.removeAll(keepingCapacity: pieces.count <= 1024)
            head = 0
        } else if head > 64, head * 2 > pieces.count {
            pieces.removeFirst(head)
            head = 0
        }
        return piece
    }

    /// The lines of `piece`: its newlines, and one more for an unfinished last line.
    static func lines(in piece: [UInt8]) -> Int {
        var lines = 0
        for byte in piece where byte == UInt8(ascii: "\n") { lines += 1 }
        if let last = piece.last, last != UInt8(ascii: "\n") { lines += 1 }
        return lines
    }
}
