extension DNSMessage {
    /// Reads a message from the wire.
    ///
    /// Every count, length and offset is checked before it is used, and a malformed message is a
    /// ``DNSDecodingError`` carrying the offset, never a trap and never a partial message.
    /// Decoding costs time linear in the message's size whatever its pointers do: a pointer must
    /// point back, below every byte its name has used so far, to the start of a label read
    /// earlier, so a name follows at most 127 pointers and reads at most 255 bytes of labels.
    /// Bytes after the last record are ignored.
    public init(decoding bytes: [UInt8]) throws(DNSDecodingError) {
        var steps = 0
        try self.init(decoding: bytes, steps: &steps)
    }

    /// Reads a message, counting the labels and pointers visited in `steps`.
    init(decoding bytes: [UInt8], steps: inout Int) throws(DNSDecodingError) {
        guard bytes.count <= Self.maximumSize else {
            throw DNSDecodingError(.messageTooLarge(size: bytes.count), at: 0)
        }
        // The label starts (one bit per byte, 9000 bits at most) and the reusable names live on
        // the stack, and the bytes are read in place: a decode allocates only what it returns.
        self = try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: (bytes.count + 63) / 64 + 1) {
            (labelStarts) throws(DNSDecodingError) -> DNSMessage in
            labelStarts.initialize(repeating: 0)
            return try withUnsafeTemporaryAllocation(of: DNSMessageReader.KnownName.self, capacity: DNSMessageReader.reusableNames) {
                (names) throws(DNSDecodingError) -> DNSMessage in
                try bytes.withUnsafeBufferPointer { (buffer) throws(DNSDecodingError) -> DNSMessage in
                    var reader = DNSMessageReader(bytes, buffer: buffer, labelStarts: labelStarts, names: names)
                    defer {
                        steps = reader.steps
                        reader.releaseNames()
                    }
                    return try Self.read(&reader)
                }
            }
        }
    }

    private static func read(_ reader: inout DNSMessageReader) throws(DNSDecodingError) -> DNSMessage {
        let id = try reader.uint16()
        let flags = try reader.uint16()
        let questionCount = Int(try reader.uint16())
        let answerCount = Int(try reader.uint16())
        let authorityCount = Int(try reader.uint16())
        let additionalCount = Int(try reader.uint16())
        var questions: [DNSQuestion] = []
        // Counts come from the network: reserve only what the remaining bytes could hold (a
        // question takes at least 5 bytes, a record at least 11).
        questions.reserveCapacity(min(questionCount, reader.remaining / 5))
        for _ in 0..<questionCount { questions.append(try reader.question()) }
        let answers = try reader.records(answerCount)
        let authorities = try reader.records(authorityCount)
        let additionals = try reader.records(additionalCount)
        return DNSMessage(
            id: id, flags: flags, questions: questions, answers: answers, authorities: authorities, additionals: additionals)
    }
}

/// The cursor over one message being decoded, the label starts read so far (the only places a
/// compression pointer may point to), and the names decoded so far by where they start (a
/// name that is only a pointer to one of them is that name again, without a new copy).
struct DNSMessageReader {
    /// A decoded name and where it started.
    struct KnownName {
        var start: Int
        var name: DNSName
    }

    /// The message, for the slices TXT records keep.
    private let message: [UInt8]
    /// The message's bytes, read in place.
    private let bytes: UnsafeBufferPointer<UInt8>
    private(set) var offset = 0
    private let labelStarts: UnsafeMutableBufferPointer<UInt64>
    private let names: UnsafeMutableBufferPointer<KnownName>
    private var nameCount = 0
    /// Labels and pointers visited so far: the decoder's work, which tests bound by the size.
    private(set) var steps = 0

    /// The most decoded names kept for reuse.
    static let reusableNames = 16

    init(
        _ message: [UInt8], buffer: UnsafeBufferPointer<UInt8>, labelStarts: UnsafeMutableBufferPointer<UInt64>,
        names: UnsafeMutableBufferPointer<KnownName>
    ) {
        self.message = message
        bytes = buffer
        self.labelStarts = labelStarts
        self.names = names
    }

    /// Lets go of the names kept for reuse (their buffer is about to go).
    mutating func releaseNames() {
        names.baseAddress?.deinitialize(count: nameCount)
        nameCount = 0
    }

    var remaining: Int { bytes.count - offset }

    mutating func uint8() throws(DNSDecodingError) -> UInt8 {
        guard offset < bytes.count else { throw DNSDecodingError(.truncated, at: offset) }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func uint16() throws(DNSDecodingError) -> UInt16 {
        guard bytes.count - offset >= 2 else { throw DNSDecodingError(.truncated, at: offset) }
        defer { offset += 2 }
        return UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1])
    }

    mutating func uint32() throws(DNSDecodingError) -> UInt32 {
        guard bytes.count - offset >= 4 else { throw DNSDecodingError(.truncated, at: offset) }
        defer { offset += 4 }
        return UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
            | UInt32(bytes[offset + 3])
    }

    mutating func question() throws(DNSDecodingError) -> DNSQuestion {
        let name = try name()
        let type = DNSRecordType(rawValue: try uint16())
        let rawClass = try uint16()
        return DNSQuestion(name: name, type: type, recordClass: rawClass & 0x7FFF, unicastResponse: rawClass & 0x8000 != 0)
    }

    mutating func records(_ count: Int) throws(DNSDecodingError) -> [DNSResourceRecord] {
        var records: [DNSResourceRecord] = []
        records.reserveCapacity(min(count, remaining / 11))
        for _ in 0..<count { records.append(try record()) }
        return records
    }

    mutating func record() throws(DNSDecodingError) -> DNSResourceRecord {
        let name = try name()
        let type = DNSRecordType(rawValue: try uint16())
        let rawClass = try uint16()
        let ttl = try uint32()
        let length = Int(try uint16())
        let start = offset
        guard bytes.count - start >= length else { throw DNSDecodingError(.recordDataPastEnd, at: start - 2) }
        let end = start + length
        let data = try recordData(type: type, end: end)
        guard offset == end else {
            throw DNSDecodingError(.badRecordData(type: type, reason: "its data is \(length) bytes, its content \(offset - start)"), at: start)
        }
        return DNSResourceRecord(name: name, recordClass: rawClass & 0x7FFF, cacheFlush: rawClass & 0x8000 != 0, ttl: ttl, data: data)
    }

    /// The data of a record of `type` that ends at `end`; leaves the cursor where its content
    /// ended, for the caller to check against `end`.
    private mutating func recordData(type: DNSRecordType, end: Int) throws(DNSDecodingError) -> DNSRecordData {
        let start = offset
        switch type {
        case .ptr:
            return .ptr(try name(within: end))
        case .srv:
            guard end - start >= 7 else { throw bad(type, "\(end - start) bytes, fewer than an SRV needs", at: start) }
            let priority = try uint16()
            let weight = try uint16()
            let port = try uint16()
            return .srv(priority: priority, weight: weight, port: port, target: try name(within: end))
        case .txt:
            offset = end
            return .txt(TXTRecord(wireSlice: message[start..<end]))
        case .a:
            guard end - start == 4 else { throw bad(type, "\(end - start) bytes, not 4", at: start) }
            return .a(IPv4Address(value: try uint32()))
        case .aaaa:
            guard end - start == 16, let address = IPv6Address(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end])) else {
                throw bad(type, "\(end - start) bytes, not 16", at: start)
            }
            offset = end
            return .aaaa(address)
        case .nsec:
            let next = try name(within: end)
            return .nsec(next: next, types: try typeBitmaps(end: end))
        default:
            offset = end
            return .other(type: type, bytes: Array(bytes[start..<end]))
        }
    }

    /// An NSEC type bitmap (RFC 4034 section 4.1.2): windows in increasing order, each 1-32
    /// bytes long.
    private mutating func typeBitmaps(end: Int) throws(DNSDecodingError) -> [DNSRecordType] {
        var types: [DNSRecordType] = []
        var lastWindow = -1
        while offset < end {
            let at = offset
            guard end - offset >= 2 else { throw bad(.nsec, "a bitmap window header runs past the data", at: at) }
            let window = Int(try uint8())
            let length = Int(try uint8())
            guard window > lastWindow else { throw bad(.nsec, "bitmap window \(window) out of order", at: at) }
            guard (1...32).contains(length), end - offset >= length else {
                throw bad(.nsec, "bitmap window \(window) is \(length) bytes long", at: at)
            }
            for index in 0..<length {
                let byte = bytes[offset + index]
                for bit in 0..<8 where byte & (0x80 >> UInt8(bit)) != 0 {
                    types.append(DNSRecordType(rawValue: UInt16(window << 8 | (index * 8 + bit))))
                }
            }
            offset += length
            lastWindow = window
        }
        return types
    }

    private func bad(_ type: DNSRecordType, _ reason: String, at offset: Int) -> DNSDecodingError {
        DNSDecodingError(.badRecordData(type: type, reason: reason), at: offset)
    }

    /// A name inside record data, which must end by `end`.
    private mutating func name(within end: Int) throws(DNSDecodingError) -> DNSName {
        let start = offset
        let name = try name()
        guard offset <= end else { throw DNSDecodingError(.recordDataPastEnd, at: start) }
        return name
    }

    /// The name at the cursor, decompressed; the cursor moves past it (past its first pointer).
    mutating func name() throws(DNSDecodingError) -> DNSName {
        let start = offset
        // A name that is a pointer to where an earlier name started is that name.
        if bytes.count - start >= 2, bytes[start] >= 0xC0 {
            let target = Int(bytes[start] & 0x3F) << 8 | Int(bytes[start + 1])
            if target < start {
                for index in 0..<nameCount where names[index].start == target {
                    steps += 1
                    offset = start + 2
                    return names[index].name
                }
            }
        }
        let name = try decodeName()
        if nameCount < Self.reusableNames, (1...63).contains(bytes[start]) {
            (names.baseAddress! + nameCount).initialize(to: KnownName(start: start, name: name))
            nameCount += 1
        }
        return name
    }

    private mutating func decodeName() throws(DNSDecodingError) -> DNSName {
        var wire: [UInt8] = []
        var position = offset
        // The lowest byte this name has used: every pointer must point below it.
        var lowest = offset
        var jumped = false
        while true {
            guard position < bytes.count else { throw DNSDecodingError(.nameRunsPastEnd, at: position) }
            steps += 1
            let length = Int(bytes[position])
            switch length {
            case 0:
                if !jumped { offset = position + 1 }
                return DNSName(validatedWire: wire)
            case 1...63:
                guard bytes.count - position - 1 >= length else { throw DNSDecodingError(.nameRunsPastEnd, at: position) }
                guard wire.count + 1 + length + 1 <= DNSName.maximumWireLength else {
                    throw DNSDecodingError(.nameTooLong, at: position)
                }
                labelStarts[position >> 6] |= 1 << UInt64(position & 63)
                if wire.isEmpty { wire.reserveCapacity(64) }
                wire.append(contentsOf: bytes[position..<(position + 1 + length)])
                position += 1 + length
            case 0xC0...0xFF:
                guard bytes.count - position >= 2 else { throw DNSDecodingError(.nameRunsPastEnd, at: position) }
                let target = (length & 0x3F) << 8 | Int(bytes[position + 1])
                if target >= position { throw DNSDecodingError(.forwardPointer(target: target), at: position) }
                if target >= lowest { throw DNSDecodingError(.pointerLoop(target: target), at: position) }
                guard labelStarts[target >> 6] & (1 << UInt64(target & 63)) != 0 else {
                    throw DNSDecodingError(.pointerNotToLabel(target: target), at: position)
                }
                if !jumped {
                    offset = position + 2
                    jumped = true
                }
                position = target
                lowest = target
            default:
                throw DNSDecodingError(.labelTooLong(length: length), at: position)
            }
        }
    }
}
