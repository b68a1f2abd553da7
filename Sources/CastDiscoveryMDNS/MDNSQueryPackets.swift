import CastDiscovery

/// Queries as packets: the questions, and the known answers (RFC 6762 section 7.1) that fit, the
/// rest in following packets with the TC bit on every packet but the last (section 7.2), so a
/// long list of known answers never exceeds a packet.
enum MDNSQueryPackets {
    /// The largest query packet sent: below an Ethernet MTU with room for IP and UDP headers.
    static let maximumSize = 1400

    /// The packets asking `questions`, listing `knownAnswers`, with query id `id` (0 for a query
    /// from port 5353; a legacy-unicast query carries one, which its answers echo).
    static func packets(questions: [DNSQuestion], knownAnswers: [DNSResourceRecord], id: UInt16 = 0) -> [[UInt8]] {
        var groups: [[DNSResourceRecord]] = [[]]
        // Sizes uncompressed, so an estimate never undercounts what compression then shrinks.
        var size = 12 + questions.reduce(0) { $0 + $1.name.wireLength + 4 }
        for record in knownAnswers {
            let cost = record.name.wireLength + 10 + dataLength(record.data)
            if size + cost > maximumSize, !groups[groups.count - 1].isEmpty {
                groups.append([])
                size = 12
            }
            groups[groups.count - 1].append(record)
            size += cost
        }
        var packets: [[UInt8]] = []
        for (index, group) in groups.enumerated() {
            let last = index == groups.count - 1
            let message = DNSMessage(
                id: id, flags: last ? 0 : DNSMessage.truncatedFlag, questions: index == 0 ? questions : [],
                answers: group)
            if let bytes = try? message.encoded() { packets.append(bytes) }
        }
        return packets
    }

    private static func dataLength(_ data: DNSRecordData) -> Int {
        switch data {
        case .ptr(let name): name.wireLength
        case .srv(_, _, _, let target): 6 + target.wireLength
        case .txt(let txt): (try? txt.wireFormat().count) ?? 0
        case .a: 4
        case .aaaa: 16
        case .nsec(let next, _): next.wireLength + 34
        case .other(_, let bytes): bytes.count
        }
    }
}
