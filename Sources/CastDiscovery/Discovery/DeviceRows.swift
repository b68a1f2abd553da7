/// The listed devices in order, kept in chunks of at most ``chunkCapacity`` rows that copies
/// share copy-on-write one by one.
///
/// A copy (a snapshot) costs nothing. The first write after one copies the chunk it changes
/// (at most ``chunkCapacity`` rows) and the table of chunk references (`count / 64` or so),
/// never the rows of the other chunks; later writes to a chunk no copy shares copy nothing.
/// Finding a sort position searches the chunks' last rows, then one chunk; turning it into an
/// index, or an index into a row, adds up the chunks' counts (`count / 64` of them).
struct DeviceRows: Sendable {
    /// The most rows one chunk holds; a fuller one splits in two.
    static let chunkCapacity = 64

    /// The chunks in order; none is empty.
    private var chunks: [[DeviceRow]] = []
    /// The number of rows.
    private(set) var count = 0

    /// The row at `index`; nil out of 0..<count.
    func row(at index: Int) -> DeviceRow? {
        locate(index).map { chunks[$0.chunk][$0.offset] }
    }

    /// Every device, in order: a new array of `count` devices.
    var devices: [CastDevice] {
        var devices: [CastDevice] = []
        devices.reserveCapacity(count)
        for chunk in chunks {
            for row in chunk { devices.append(row.device) }
        }
        return devices
    }

    /// The first index whose row does not sort before `row`: a binary search over the chunks'
    /// last rows, then one in the chunk.
    func insertionIndex(for row: DeviceRow) -> Int {
        var low = 0
        var high = chunks.count
        while low < high {
            let mid = (low + high) / 2
            if let last = chunks[mid].last, last.precedes(row) { low = mid + 1 } else { high = mid }
        }
        guard low < chunks.count else { return count }
        let chunk = chunks[low]
        var start = 0
        for before in chunks[..<low] { start += before.count }
        var first = 0
        var end = chunk.count
        while first < end {
            let mid = (first + end) / 2
            if chunk[mid].precedes(row) { first = mid + 1 } else { end = mid }
        }
        return start + first
    }

    /// Inserts `row` at `index` (0...count; any other index changes nothing).
    mutating func insert(_ row: DeviceRow, at index: Int) {
        guard !chunks.isEmpty else {
            if index == 0 { chunks = [[row]]; count = 1 }
            return
        }
        guard let (chunk, offset) = locate(index, end: true) else { return }
        count += 1
        chunks[chunk].insert(row, at: offset)
        guard chunks[chunk].count > Self.chunkCapacity else { return }
        let half = chunks[chunk].count / 2
        let tail = Array(chunks[chunk][half...])
        chunks[chunk].removeSubrange(half...)
        chunks.insert(tail, at: chunk + 1)
    }

    /// Removes the row at `index` (0..<count; any other index changes nothing). A chunk left small
    /// joins a neighbour when both fit in one, so the table stays near `count / chunkCapacity`
    /// chunks.
    mutating func remove(at index: Int) {
        guard let (chunk, offset) = locate(index) else { return }
        count -= 1
        chunks[chunk].remove(at: offset)
        let size = chunks[chunk].count
        if size == 0 {
            chunks.remove(at: chunk)
        } else if size < Self.chunkCapacity / 4 {
            if chunk + 1 < chunks.count, size + chunks[chunk + 1].count <= Self.chunkCapacity {
                let next = chunks.remove(at: chunk + 1)
                chunks[chunk].append(contentsOf: next)
            } else if chunk > 0, size + chunks[chunk - 1].count <= Self.chunkCapacity {
                let this = chunks.remove(at: chunk)
                chunks[chunk - 1].append(contentsOf: this)
            }
        }
    }

    /// Replaces the row at `index` (0..<count; any other index changes nothing).
    mutating func replace(at index: Int, with row: DeviceRow) {
        guard let (chunk, offset) = locate(index) else { return }
        chunks[chunk][offset] = row
    }

    /// The chunk holding `index` and its offset there; with `end`, `count` is the last chunk's
    /// end (where an insertion at the end goes). Nil for an index outside the rows.
    private func locate(_ index: Int, end: Bool = false) -> (chunk: Int, offset: Int)? {
        guard index >= 0, index < count || (end && index == count) else { return nil }
        var start = 0
        for (number, chunk) in chunks.enumerated() {
            if index < start + chunk.count || (end && number == chunks.count - 1) { return (number, index - start) }
            start += chunk.count
        }
        return nil
    }
}
