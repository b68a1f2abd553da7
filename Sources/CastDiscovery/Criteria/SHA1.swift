/// A small, hand-written SHA-1 (FIPS 180-4) used to compute Cast namespace subtype labels.
///
/// Cast receivers advertise one DNS-SD subtype per message namespace they handle, labelled
/// `_%` followed by the upper-case hex SHA-1 of the namespace string. CryptoKit is not available
/// on Linux, so this module carries its own implementation. SHA-1 is used here only as a naming
/// function; it is not suitable for any security purpose.
///
/// The input is consumed as a stream: arbitrary lengths are processed block by block without
/// first copying the whole sequence into memory.
enum SHA1 {
    /// The size of a SHA-1 digest in bytes.
    static let digestByteCount = 20

    /// Returns the 20-byte SHA-1 digest of `bytes`.
    static func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        var hasher = Hasher()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Returns the 20-byte SHA-1 digest of the UTF-8 encoding of `string`.
    static func hash(_ string: String) -> [UInt8] {
        hash(string.utf8)
    }

    /// Returns the SHA-1 digest of `bytes` as 40 upper-case hexadecimal digits.
    static func hexDigest(_ bytes: some Sequence<UInt8>) -> String {
        hexString(hash(bytes))
    }

    /// Returns the SHA-1 digest of the UTF-8 encoding of `string` as 40 upper-case hexadecimal digits.
    static func hexDigest(_ string: String) -> String {
        hexDigest(string.utf8)
    }

    /// Formats `bytes` as upper-case hexadecimal, two digits per byte.
    static func hexString(_ bytes: some Sequence<UInt8>) -> String {
        HexText.encode(bytes, uppercase: true)
    }

    /// Incremental SHA-1 state: feed bytes with `update(_:)`, then call `finalize()` once.
    struct Hasher {
        private var state: (UInt32, UInt32, UInt32, UInt32, UInt32) =
            (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        /// Bytes of the current, not yet complete 64-byte block.
        private var block = [UInt8](repeating: 0, count: 64)
        private var blockCount = 0
        /// Total number of message bytes fed so far.
        private var messageLength: UInt64 = 0
        /// The message schedule, kept to avoid one allocation per block.
        private var schedule = [UInt32](repeating: 0, count: 80)

        /// Creates a hasher in the initial SHA-1 state.
        init() {}

        /// Feeds `bytes` into the hash.
        mutating func update(_ bytes: some Sequence<UInt8>) {
            let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
                for byte in buffer { append(byte) }
            }
            if handled == nil {
                for byte in bytes { append(byte) }
            }
        }

        /// Pads the message and returns the 20-byte digest. The hasher must not be used afterwards.
        mutating func finalize() -> [UInt8] {
            let bitLength = messageLength &* 8
            append(0x80)
            while blockCount != 56 { append(0x00) }
            for shift in stride(from: 56, through: 0, by: -8) {
                append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
            }
            var digest: [UInt8] = []
            digest.reserveCapacity(SHA1.digestByteCount)
            for word in [state.0, state.1, state.2, state.3, state.4] {
                digest.append(UInt8(truncatingIfNeeded: word >> 24))
                digest.append(UInt8(truncatingIfNeeded: word >> 16))
                digest.append(UInt8(truncatingIfNeeded: word >> 8))
                digest.append(UInt8(truncatingIfNeeded: word))
            }
            return digest
        }

        private mutating func append(_ byte: UInt8) {
            block[blockCount] = byte
            blockCount += 1
            messageLength &+= 1
            if blockCount == 64 {
                compressBlock()
                blockCount = 0
            }
        }

        private mutating func compressBlock() {
            for index in 0..<16 {
                let offset = index * 4
                schedule[index] =
                    UInt32(block[offset]) << 24
                    | UInt32(block[offset + 1]) << 16
                    | UInt32(block[offset + 2]) << 8
                    | UInt32(block[offset + 3])
            }
            for index in 16..<80 {
                let mixed =
                    schedule[index - 3] ^ schedule[index - 8]
                    ^ schedule[index - 14] ^ schedule[index - 16]
                schedule[index] = mixed.rotatedLeft(by: 1)
            }
            var (a, b, c, d, e) = state
            for index in 0..<80 {
                let f: UInt32
                let k: UInt32
                switch index {
                case 0..<20:
                    f = (b & c) | (~b & d)
                    k = 0x5A82_7999
                case 20..<40:
                    f = b ^ c ^ d
                    k = 0x6ED9_EBA1
                case 40..<60:
                    f = (b & c) | (b & d) | (c & d)
                    k = 0x8F1B_BCDC
                default:
                    f = b ^ c ^ d
                    k = 0xCA62_C1D6
                }
                let temp = a.rotatedLeft(by: 5) &+ f &+ e &+ k &+ schedule[index]
                e = d
                d = c
                c = b.rotatedLeft(by: 30)
                b = a
                a = temp
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
        }
    }
}

extension UInt32 {
    /// Rotates the bits left by `count` (0 < count < 32).
    fileprivate func rotatedLeft(by count: UInt32) -> UInt32 {
        (self << count) | (self >> (32 - count))
    }
}
