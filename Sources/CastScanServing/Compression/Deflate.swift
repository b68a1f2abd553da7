internal import CZlib

/// A piece of raw deflate data and what a gzip trailer needs of the bytes it holds. Pieces made
/// apart can be joined into one gzip member (``GzipMember``), so that a large part compressed
/// once is sent again with small parts compressed per request.
public struct DeflateSegment: Sendable, Hashable {
    /// The compressed bytes: whole deflate blocks, ended by a sync flush or, when ``isFinal``,
    /// by the last block.
    public let compressed: [UInt8]
    /// The CRC-32 of the uncompressed bytes.
    public let crc32: UInt32
    /// How many bytes it holds uncompressed.
    public let length: Int
    /// Whether it ends the stream (no segment may follow it).
    public let isFinal: Bool

    /// Compresses `bytes` at zlib's `level` (1 fastest to 9 smallest; 6 is zlib's default).
    /// Nil when zlib cannot be loaded or fails.
    public init?(compressing bytes: [UInt8], final: Bool, level: Int32 = 6) {
        guard Self.loaded, (1...9).contains(level) else { return nil }
        var output = [UInt8](repeating: 0, count: cast_zlib_bound(bytes.count))
        var written = 0
        let capacity = output.count
        let done = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                cast_zlib_deflate(
                    input.baseAddress, input.count, final ? 1 : 0, level, out.baseAddress, capacity, &written)
            }
        }
        guard done == 1, written <= output.count else { return nil }
        output.removeSubrange(written...)
        compressed = output
        crc32 = UInt32(
            truncatingIfNeeded: bytes.withUnsafeBufferPointer { cast_zlib_crc32(0, $0.baseAddress, $0.count) })
        length = bytes.count
        isFinal = final
    }

    /// The CRC-32 of `first`'s bytes followed by `second`'s (`second` holding `secondLength`).
    static func combine(_ first: UInt32, _ second: UInt32, secondLength: Int) -> UInt32 {
        guard Self.loaded else { return 0 }
        return UInt32(truncatingIfNeeded: cast_zlib_crc32_combine(UInt(first), UInt(second), secondLength))
    }

    /// Whether zlib could be loaded; loads it the first time.
    static let loaded: Bool = cast_zlib_load()
}
