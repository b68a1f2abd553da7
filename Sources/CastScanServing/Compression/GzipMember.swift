/// One gzip member (RFC 1952) made of deflate segments compressed apart, joined in order: the
/// header, their compressed bytes, then the CRC-32 and length of everything they hold.
public enum GzipMember {
    /// The member holding `segments`' bytes in order; the last must be final, no other may be.
    /// Nil when they are not so.
    public static func join(_ segments: [DeflateSegment]) -> [UInt8]? {
        guard let last = segments.last, last.isFinal, !segments.dropLast().contains(where: \.isFinal) else {
            return nil
        }
        // ID1 ID2, deflate, no flags, no time, no extra flags, OS unknown (255).
        var member: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255]
        member.reserveCapacity(segments.reduce(18) { $0 + $1.compressed.count })
        var crc: UInt32 = 0
        var length = 0
        for segment in segments {
            member += segment.compressed
            crc = length == 0 ? segment.crc32 : DeflateSegment.combine(crc, segment.crc32, secondLength: segment.length)
            length += segment.length
        }
        appendLittleEndian(crc, to: &member)
        appendLittleEndian(UInt32(truncatingIfNeeded: length), to: &member)
        return member
    }

    private static func appendLittleEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }
}
