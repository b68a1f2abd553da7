extension DNSMessage {
    /// The message on the wire, with names compressed: each name is written as its labels up to
    /// the longest suffix already written, then a pointer to that suffix (the shortest
    /// encoding). Names in PTR, SRV and NSEC data are compressed too, as RFC 6762 section 18.14
    /// allows in mDNS.
    ///
    /// - Throws: ``DNSEncodingError`` when the message would exceed ``maximumSize``, a TXT
    ///   record cannot be written, or a section has more than 65,535 entries.
    public func encoded() throws(DNSEncodingError) -> [UInt8] {
        var writer = DNSMessageWriter()
        writer.uint16(id)
        writer.uint16(flags)
        for count in [questions.count, answers.count, authorities.count, additionals.count] {
            guard count <= Int(UInt16.max) else { throw .tooManyEntries(count: count) }
            writer.uint16(UInt16(count))
        }
        for question in questions {
            writer.name(question.name)
            writer.uint16(question.type.rawValue)
            writer.uint16(question.recordClass & 0x7FFF | (question.unicastResponse ? 0x8000 : 0))
        }
        for record in answers + authorities + additionals {
            try writer.record(record)
            guard writer.bytes.count <= Self.maximumSize else { throw .messageTooLarge(size: writer.bytes.count) }
        }
        guard writer.bytes.count <= Self.maximumSize else { throw .messageTooLarge(size: writer.bytes.count) }
        return writer.bytes
    }
}

/// The bytes of a message being written, and where each name suffix already written starts.
struct DNSMessageWriter {
    private(set) var bytes: [UInt8] = []
    /// Lower-cased wire form of a written suffix -> its offset (below 0x4000, as a pointer needs).
    private var suffixes: [[UInt8]: Int] = [:]

    init() {
        bytes.reserveCapacity(512)
    }

    mutating func uint16(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    mutating func uint32(_ value: UInt32) {
        for shift in [24, 16, 8, 0] as [UInt32] { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
    }

    /// Writes `name`, compressed; its suffixes become targets for the names after it.
    mutating func name(_ name: DNSName) {
        let wire = name.wire
        var index = 0
        while index < wire.count {
            let key = wire[index...].map(DNSSDBytes.asciiLowercased)
            if let target = suffixes[key] {
                bytes.append(0xC0 | UInt8(target >> 8))
                bytes.append(UInt8(target & 0xFF))
                return
            }
            if bytes.count < 0x4000, suffixes[key] == nil { suffixes[key] = bytes.count }
            let length = Int(wire[index])
            bytes.append(contentsOf: wire[index...(index + length)])
            index += 1 + length
        }
        bytes.append(0)
    }

    mutating func record(_ record: DNSResourceRecord) throws(DNSEncodingError) {
        name(record.name)
        uint16(record.type.rawValue)
        uint16(record.recordClass & 0x7FFF | (record.cacheFlush ? 0x8000 : 0))
        uint32(record.ttl)
        let lengthAt = bytes.count
        uint16(0)
        let start = bytes.count
        switch record.data {
        case .ptr(let target):
            name(target)
        case .srv(let priority, let weight, let port, let target):
            uint16(priority)
            uint16(weight)
            uint16(port)
            name(target)
        case .txt(let txt):
            do throws(TXTRecordError) {
                bytes.append(contentsOf: try txt.wireFormat())
            } catch {
                throw .badTXT(error)
            }
        case .a(let address):
            uint32(address.value)
        case .aaaa(let address):
            bytes.append(contentsOf: address.bytes)
        case .nsec(let next, let types):
            name(next)
            typeBitmaps(types)
        case .other(_, let data):
            bytes.append(contentsOf: data)
        }
        let length = bytes.count - start
        guard length <= Int(UInt16.max) else { throw .recordDataTooLong(length: length) }
        bytes[lengthAt] = UInt8(length >> 8)
        bytes[lengthAt + 1] = UInt8(length & 0xFF)
    }

    /// An NSEC type bitmap: one window per 256 types that has any, each as short as it can be.
    private mutating func typeBitmaps(_ types: [DNSRecordType]) {
        let sorted = Set(types.map(\.rawValue)).sorted()
        var index = 0
        while index < sorted.count {
            let window = sorted[index] >> 8
            var map = [UInt8](repeating: 0, count: 32)
            var used = 0
            while index < sorted.count, sorted[index] >> 8 == window {
                let low = Int(sorted[index] & 0xFF)
                map[low / 8] |= 0x80 >> UInt8(low % 8)
                used = low / 8 + 1
                index += 1
            }
            bytes.append(UInt8(window))
            bytes.append(UInt8(used))
            bytes.append(contentsOf: map[..<used])
        }
    }
}
