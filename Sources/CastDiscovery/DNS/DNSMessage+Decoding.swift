extension DNSMessage {
    /// The most labels and pointers one name may visit: a name of 255 bytes has at most 127
    /// labels, and an encoder points once, at its tail. More is a pointer loop.
    public static let maximumNameSteps = 128

    /// The most labels and pointers a message of `size` bytes may visit in all, decoding linear
    /// in the size: a name that is a pointer to an earlier name costs one step, a name read out
    /// costs its labels and pointers, so a real message costs well under one step per byte;
    /// a compression bomb (many short names each pointing at a long one) is cut here.
    package static func workBound(forSize size: Int) -> Int { 4 * size + 512 }

    /// Reads a message from the wire, strictly: the first record that cannot be read makes it
    /// an error.
    ///
    /// It reads what ``decodingLeniently(_:)`` reads, and throws what that skipped first, or
    /// why it stopped. Bytes after the last record are ignored.
    public init(decoding bytes: [UInt8]) throws(DNSDecodingError) {
        let decoding = try Self.decodingLeniently(bytes)
        if let first = decoding.skippedRecords.first { throw first }
        if let stop = decoding.stoppedBy { throw stop }
        self = decoding.message
    }

    /// Reads a message from the wire record by record, as mDNS peers do.
    ///
    /// A record whose data is malformed is skipped (``DNSLenientDecoding/skippedRecords``) and
    /// the records around it are kept; a broken question or owner name, a field that runs past
    /// the end, or more work than `workBound(forSize:)` ends the message there, keeping what
    /// came before (``DNSLenientDecoding/stoppedBy``). Compression pointers may point anywhere
    /// in the message, ahead as well as back, as python-zeroconf and Android TVs' responders
    /// do; a name visits at most ``maximumNameSteps`` labels and pointers and is at most 255
    /// bytes, so a loop ends. Every count, length and offset is checked before it is used: never
    /// a trap.
    ///
    /// - Throws: ``DNSDecodingError`` when the message is larger than ``maximumSize`` or its
    ///   header is cut short: it gives nothing.
    public static func decodingLeniently(_ bytes: [UInt8]) throws(DNSDecodingError) -> DNSLenientDecoding {
        guard bytes.count <= Self.maximumSize else {
            throw DNSDecodingError(.messageTooLarge(size: bytes.count), at: 0)
        }
        // The reusable names live on the stack and the bytes are read in place: a decode
        // allocates only what it returns.
        return try withUnsafeTemporaryAllocation(
            of: DNSMessageReader.KnownName.self, capacity: DNSMessageReader.reusableNames
        ) {
            (names) throws(DNSDecodingError) -> DNSLenientDecoding in
            try bytes.withUnsafeBufferPointer { (buffer) throws(DNSDecodingError) -> DNSLenientDecoding in
                var reader = DNSMessageReader(
                    bytes, buffer: buffer, names: names, workBound: workBound(forSize: bytes.count))
                defer { reader.releaseNames() }
                return try Self.read(&reader)
            }
        }
    }

    private static func read(_ reader: inout DNSMessageReader) throws(DNSDecodingError) -> DNSLenientDecoding {
        let id = try reader.uint16()
        let flags = try reader.uint16()
        let questionCount = Int(try reader.uint16())
        let answerCount = Int(try reader.uint16())
        let authorityCount = Int(try reader.uint16())
        let additionalCount = Int(try reader.uint16())
        var decoding = DNSLenientDecoding(
            message: DNSMessage(id: id, flags: flags), skippedRecords: [], stoppedBy: nil, work: 0)
        do throws(DNSDecodingError) {
            // Counts come from the network: reserve only what the remaining bytes could hold (a
            // question takes at least 5 bytes, a record at least 11).
            decoding.message.questions.reserveCapacity(min(questionCount, reader.remaining / 5))
            for _ in 0..<questionCount { decoding.message.questions.append(try reader.question()) }
            try reader.records(answerCount, into: &decoding.message.answers, skipping: &decoding.skippedRecords)
            try reader.records(authorityCount, into: &decoding.message.authorities, skipping: &decoding.skippedRecords)
            try reader.records(additionalCount, into: &decoding.message.additionals, skipping: &decoding.skippedRecords)
        } catch {
            decoding.stoppedBy = error
        }
        decoding.work = reader.steps
        return decoding
    }
}

/// The cursor over one message being decoded, and the names decoded so far by where they start
/// (a name that is only a pointer to one of them is that name again, without a new copy).
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
    private let names: UnsafeMutableBufferPointer<KnownName>
    private var nameCount = 0
    /// The kept name replaced next once all places are taken.
    private var oldestName = 0
    /// Labels and pointers visited so far: the decoder's work, at most `workBound`.
    private(set) var steps = 0
    private let workBound: Int

    /// The most decoded names kept for reuse.
    static let reusableNames = 16

    init(
        _ message: [UInt8], buffer: UnsafeBufferPointer<UInt8>, names: UnsafeMutableBufferPointer<KnownName>,
        workBound: Int
    ) {
        self.message = message
        bytes = buffer
        self.names = names
        self.workBound = workBound
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
        return DNSQuestion(
            name: name, type: type, recordClass: rawClass & 0x7FFF, unicastResponse: rawClass & 0x8000 != 0)
    }

    /// Reads `count` records into `records`, skipping (into `skipped`) each whose data is
    /// malformed; throws where the framing is lost.
    mutating func records(
        _ count: Int, into records: inout [DNSResourceRecord], skipping skipped: inout [DNSDecodingError]
    ) throws(DNSDecodingError) {
        records.reserveCapacity(min(count, remaining / 11))
        for _ in 0..<count {
            if let record = try record(skipping: &skipped) { records.append(record) }
        }
    }

    /// The record at the cursor, or nil when its data is malformed (the cursor moves past it
    /// all the same, and `skipped` says why). Throws when its owner name or fixed fields are
    /// broken, or its data runs past the end: where the next record starts is then unknown.
    mutating func record(skipping skipped: inout [DNSDecodingError]) throws(DNSDecodingError) -> DNSResourceRecord? {
        let name = try name()
        let type = DNSRecordType(rawValue: try uint16())
        let rawClass = try uint16()
        let ttl = try uint32()
        let length = Int(try uint16())
        let start = offset
        guard bytes.count - start >= length else { throw DNSDecodingError(.recordDataPastEnd, at: start - 2) }
        let end = start + length
        do throws(DNSDecodingError) {
            let data = try recordData(type: type, end: end)
            guard offset == end else {
                throw bad(type, "its data is \(length) bytes, its content \(offset - start)", at: start)
            }
            return DNSResourceRecord(
                name: name, recordClass: rawClass & 0x7FFF, cacheFlush: rawClass & 0x8000 != 0, ttl: ttl, data: data)
        } catch {
            if case .workBoundExceeded = error.kind { throw error }
            skipped.append(error)
            offset = end
            return nil
        }
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
            guard end - start == 16, let address = IPv6Address(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end]))
            else {
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
        // A name that is a pointer to where a name read before started is that name.
        if bytes.count - start >= 2, bytes[start] >= 0xC0,
            let known = knownName(at: Int(bytes[start] & 0x3F) << 8 | Int(bytes[start + 1]))
        {
            try step(at: start)
            offset = start + 2
            return known
        }
        let name = try decodeName()
        // Kept by where it starts: here, or where the pointer that is all of it points.
        let first = Int(bytes[start])
        if (1...63).contains(first) {
            remember(name, at: start)
        } else if first >= 0xC0 {
            remember(name, at: (first & 0x3F) << 8 | Int(bytes[start + 1]))
        }
        return name
    }

    /// The name read before that starts at `start`, if it is still kept.
    private func knownName(at start: Int) -> DNSName? {
        for index in 0..<nameCount where names[index].start == start { return names[index].name }
        return nil
    }

    /// Keeps `name` as the one at `start`, in place of the oldest kept when all places are taken.
    private mutating func remember(_ name: DNSName, at start: Int) {
        if nameCount < Self.reusableNames {
            (names.baseAddress! + nameCount).initialize(to: KnownName(start: start, name: name))
            nameCount += 1
        } else {
            names[oldestName] = KnownName(start: start, name: name)
            oldestName = (oldestName + 1) % Self.reusableNames
        }
    }

    /// Counts one label or pointer visited against the message's work bound.
    private mutating func step(at position: Int) throws(DNSDecodingError) {
        guard steps < workBound else { throw DNSDecodingError(.workBoundExceeded(bound: workBound), at: position) }
        steps += 1
    }

    /// Reads the name at the cursor label by label, following pointers anywhere in the message.
    private mutating func decodeName() throws(DNSDecodingError) -> DNSName {
        var wire: [UInt8] = []
        var position = offset
        var nameSteps = 0
        var jumped = false
        while true {
            guard position < bytes.count else { throw DNSDecodingError(.nameRunsPastEnd, at: position) }
            try step(at: position)
            nameSteps += 1
            let length = Int(bytes[position])
            switch length {
            case 0:
                if !jumped { offset = position + 1 }
                return DNSName(validatedWire: wire)
            case 1...63:
                guard bytes.count - position - 1 >= length else {
                    throw DNSDecodingError(.nameRunsPastEnd, at: position)
                }
                guard wire.count + 1 + length + 1 <= DNSName.maximumWireLength else {
                    throw DNSDecodingError(.nameTooLong, at: position)
                }
                if wire.isEmpty { wire.reserveCapacity(64) }
                wire.append(contentsOf: bytes[position..<(position + 1 + length)])
                position += 1 + length
            case 0xC0...0xFF:
                guard bytes.count - position >= 2 else { throw DNSDecodingError(.nameRunsPastEnd, at: position) }
                let target = (length & 0x3F) << 8 | Int(bytes[position + 1])
                guard target < bytes.count else {
                    throw DNSDecodingError(.pointerOutsideMessage(target: target), at: position)
                }
                guard nameSteps < DNSMessage.maximumNameSteps else {
                    throw DNSDecodingError(.pointerLoop(target: target), at: position)
                }
                if !jumped {
                    offset = position + 2
                    jumped = true
                }
                // The rest of the name is one read before: it is copied, not read again.
                if let known = knownName(at: target) {
                    guard wire.count + known.wire.count + 1 <= DNSName.maximumWireLength else {
                        throw DNSDecodingError(.nameTooLong, at: position)
                    }
                    return DNSName(validatedWire: wire + known.wire)
                }
                position = target
            default:
                throw DNSDecodingError(.labelTooLong(length: length), at: position)
            }
        }
    }
}
