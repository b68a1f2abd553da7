#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Structural checks run on raw property list bytes before Foundation parses them, so that
/// hostile input fails with a clear error instead of exhausting time, memory or the stack.
///
/// - Text (XML, OpenStep): UTF-8, or UTF-16 with a byte order mark, without U+0000; anything
///   else is refused (FoundationEssentials' XML decoder traps, rather than throws, on invalid
///   UTF-8 inside an `<integer>`).
/// - XML: the nesting of `<array>` and `<dict>` elements is measured with a scan of the text as
///   UTF-8, so a UTF-16 list is measured too.
/// - Binary (`bplist`): the object graph is walked without building it; cycles, references out
///   of range, nesting deeper than the limit and graphs that expand (through shared references)
///   to more objects than the limit are rejected. Foundation's own parser expands shared
///   references, so a small file can otherwise describe billions of objects.
enum PropertyListGuard {
    static func check(_ data: Data, maximumDepth: Int, maximumObjects: Int)
        throws(InfoPlistError)
    {
        let bytes = [UInt8](data)
        if bytes.starts(with: Array("bplist".utf8)) {
            try checkBinary(bytes, maximumDepth: maximumDepth, maximumObjects: maximumObjects)
        } else {
            try checkXMLDepth(try utf8Text(bytes), maximumDepth: maximumDepth)
        }
    }

    // MARK: Text

    /// The text of an XML or OpenStep property list as UTF-8: its bytes, or its UTF-16
    /// transcoded when it starts with a byte order mark (the decoder reads both). The depth scan
    /// must read the characters the decoder reads: in UTF-16, `<array>` is not the bytes
    /// `<array`, and a deep list went past the scan to overflow the decoder's stack.
    private static func utf8Text(_ bytes: [UInt8]) throws(InfoPlistError) -> [UInt8] {
        let bigEndian = bytes.starts(with: [0xFE, 0xFF])
        let text: [UInt8]
        if bigEndian || bytes.starts(with: [0xFF, 0xFE]) {
            guard bytes.count % 2 == 0, let transcoded = utf8(fromUTF16: bytes.dropFirst(2), bigEndian: bigEndian)
            else { throw .notAPropertyList(reason: "the UTF-16 text is not valid UTF-16") }
            text = transcoded
        } else {
            guard String(validating: bytes, as: UTF8.self) != nil else {
                throw .notAPropertyList(reason: "the text is neither UTF-8 nor UTF-16 with a byte order mark")
            }
            text = bytes
        }
        guard !text.contains(0) else { throw .notAPropertyList(reason: "the text holds a NUL character") }
        return text
    }

    /// `bytes` (an even count, after the byte order mark) read as UTF-16, in UTF-8; nil when invalid.
    private static func utf8(fromUTF16 bytes: ArraySlice<UInt8>, bigEndian: Bool) -> [UInt8]? {
        let units = stride(from: bytes.startIndex, to: bytes.endIndex, by: 2).lazy.map { index -> UInt16 in
            let (first, second) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
            return bigEndian ? first << 8 | second : second << 8 | first
        }
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count)
        let failed = transcode(units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: true) {
            text.append($0)
        }
        return failed ? nil : text
    }

    // MARK: XML

    private static func checkXMLDepth(_ bytes: [UInt8], maximumDepth: Int) throws(InfoPlistError) {
        let opens = [Array("<array".utf8), Array("<dict".utf8)]
        let closes = [Array("</array".utf8), Array("</dict".utf8)]
        var depth = 0
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if let open = opens.first(where: { matches($0, in: bytes, at: index) }) {
                var end = index + open.count
                // Only `<array>`/`<array ...>`, not `<arrayx>`; `<array/>` opens nothing.
                guard end < bytes.count,
                    [
                        UInt8(ascii: ">"), UInt8(ascii: "/"), 0x20, 0x09, 0x0A,
                        0x0D,
                    ].contains(bytes[end])
                else {
                    index += 1
                    continue
                }
                while end < bytes.count && bytes[end] != UInt8(ascii: ">") { end += 1 }
                let selfClosing = end > 0 && end < bytes.count && bytes[end - 1] == UInt8(ascii: "/")
                if !selfClosing {
                    depth += 1
                    if depth > maximumDepth { throw .tooDeeplyNested(limit: maximumDepth) }
                }
                index = end
            } else if closes.contains(where: { matches($0, in: bytes, at: index) }) {
                depth = max(0, depth - 1)
                index += 2
            } else {
                index += 1
            }
        }
    }

    private static func matches(_ pattern: [UInt8], in bytes: [UInt8], at index: Int) -> Bool {
        guard index + pattern.count <= bytes.count else { return false }
        for offset in 0..<pattern.count where bytes[index + offset] != pattern[offset] {
            return false
        }
        return true
    }

    // MARK: Binary

    private static func malformed(_ why: String) -> InfoPlistError {
        .notAPropertyList(reason: "malformed binary property list: \(why)")
    }

    private static func readInt(_ bytes: [UInt8], at offset: Int, size: Int) -> Int? {
        guard size >= 1, size <= 8, offset >= 0, offset + size <= bytes.count else { return nil }
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return value > UInt64(Int.max) ? nil : Int(value)
    }

    private static func checkBinary(_ bytes: [UInt8], maximumDepth: Int, maximumObjects: Int)
        throws(InfoPlistError)
    {
        var walk = ObjectGraphWalk(
            list: try BinaryPropertyList(bytes), maximumDepth: maximumDepth, maximumObjects: maximumObjects)
        try walk.run()
    }

    /// A binary property list's trailer and object table, read without building any object.
    private struct BinaryPropertyList {
        let bytes: [UInt8]
        let offsetSize: Int
        let refSize: Int
        let objectCount: Int
        let top: Int
        let tableOffset: Int

        /// Reads and checks the trailer (the last 32 bytes) against the file's size.
        init(_ bytes: [UInt8]) throws(InfoPlistError) {
            guard bytes.count >= 8 + 32 else { throw malformed("too short") }
            let trailer = bytes.count - 32
            let offsetSize = Int(bytes[trailer + 6])
            let refSize = Int(bytes[trailer + 7])
            guard (1...8).contains(offsetSize), (1...8).contains(refSize),
                let objectCount = readInt(bytes, at: trailer + 8, size: 8),
                let top = readInt(bytes, at: trailer + 16, size: 8),
                let tableOffset = readInt(bytes, at: trailer + 24, size: 8)
            else { throw malformed("bad trailer") }
            guard objectCount >= 1, top < objectCount,
                objectCount <= (trailer - tableOffset) / offsetSize, tableOffset >= 8
            else { throw malformed("bad object table") }
            self.bytes = bytes
            self.offsetSize = offsetSize
            self.refSize = refSize
            self.objectCount = objectCount
            self.top = top
            self.tableOffset = tableOffset
        }

        /// The objects an array, set or dictionary refers to (keys and values); empty for any
        /// other object. Every offset, count and reference is checked against the file.
        func children(of object: Int) throws(InfoPlistError) -> [Int] {
            guard let offset = readInt(bytes, at: tableOffset + object * offsetSize, size: offsetSize),
                offset >= 8, offset < tableOffset
            else { throw malformed("bad object offset") }
            let marker = bytes[offset]
            let kind = marker >> 4
            guard kind == 0xA || kind == 0xC || kind == 0xD else { return [] }
            let (count, start) = try collectionSize(marker: marker, at: offset + 1)
            let refs = kind == 0xD ? 2 : 1
            guard count <= (tableOffset - start) / (refSize * refs) else {
                throw malformed("collection larger than the file")
            }
            var result: [Int] = []
            result.reserveCapacity(count * refs)
            for index in 0..<(count * refs) {
                guard let ref = readInt(bytes, at: start + index * refSize, size: refSize), ref < objectCount
                else { throw malformed("object reference out of range") }
                result.append(ref)
            }
            return result
        }

        /// A collection's element count (in the marker, or an integer object after it when the
        /// marker says 15) and where its references start.
        private func collectionSize(marker: UInt8, at start: Int) throws(InfoPlistError) -> (count: Int, start: Int) {
            let count = Int(marker & 0x0F)
            guard count == 0x0F else { return (count, start) }
            guard start < tableOffset, bytes[start] >> 4 == 0x1 else { throw malformed("bad collection size") }
            let size = 1 << Int(bytes[start] & 0x0F)
            guard let value = readInt(bytes, at: start + 1, size: size) else { throw malformed("bad collection size") }
            return (value, start + 1 + size)
        }
    }

    /// A depth-first walk of the object graph from the top object, without recursion: each
    /// collection's nesting depth and expanded object count is found once and reused where it is
    /// shared, so a graph that expands past the limits is refused before any parser expands it.
    private struct ObjectGraphWalk {
        /// A collection on the path from the top object, with its children and the depth and
        /// expanded size found so far.
        struct Frame {
            var object: Int
            var children: [Int]
            var next = 0
            var depth = 1
            var size = 1
        }

        let list: BinaryPropertyList
        let maximumDepth: Int
        let maximumObjects: Int
        /// Each collection finished: its nesting depth and expanded object count.
        private var done: [Int: (depth: Int, size: Int)] = [:]
        private var onPath = Set<Int>()
        private var stack: [Frame] = []

        init(list: BinaryPropertyList, maximumDepth: Int, maximumObjects: Int) {
            self.list = list
            self.maximumDepth = maximumDepth
            self.maximumObjects = maximumObjects
        }

        mutating func run() throws(InfoPlistError) {
            stack = [Frame(object: list.top, children: try list.children(of: list.top))]
            onPath.insert(list.top)
            while let frame = stack.last {
                if frame.next < frame.children.count {
                    stack[stack.count - 1].next += 1
                    try visit(frame.children[frame.next])
                } else {
                    try finish()
                }
            }
        }

        /// Adds `child` to the collection on top of the stack: known sizes are reused, leaves
        /// count one, a new collection is entered.
        private mutating func visit(_ child: Int) throws(InfoPlistError) {
            let frame = stack[stack.count - 1]
            if let known = done[child] {
                if stack.count + known.depth > maximumDepth { throw .tooDeeplyNested(limit: maximumDepth) }
                stack[stack.count - 1].depth = max(frame.depth, known.depth + 1)
                stack[stack.count - 1].size = frame.size + known.size
            } else if onPath.contains(child) {
                throw malformed("a collection contains itself")
            } else {
                let grandchildren = try list.children(of: child)
                if grandchildren.isEmpty {
                    done[child] = (1, 1)
                    stack[stack.count - 1].size = frame.size + 1
                    stack[stack.count - 1].depth = max(frame.depth, 2)
                } else {
                    if stack.count + 1 > maximumDepth { throw .tooDeeplyNested(limit: maximumDepth) }
                    onPath.insert(child)
                    stack.append(Frame(object: child, children: grandchildren))
                }
            }
            if stack[stack.count - 1].size > maximumObjects { throw .tooManyObjects(limit: maximumObjects) }
        }

        /// Leaves the collection on top of the stack, adding its depth and size to its parent.
        private mutating func finish() throws(InfoPlistError) {
            let frame = stack.removeLast()
            onPath.remove(frame.object)
            done[frame.object] = (frame.depth, frame.size)
            guard !stack.isEmpty else { return }
            stack[stack.count - 1].depth = max(stack[stack.count - 1].depth, frame.depth + 1)
            stack[stack.count - 1].size += frame.size
            if stack[stack.count - 1].size > maximumObjects { throw .tooManyObjects(limit: maximumObjects) }
        }
    }
}
