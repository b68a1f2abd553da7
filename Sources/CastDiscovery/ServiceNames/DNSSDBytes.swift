/// Byte-level helpers shared by the DNS-SD name and TXT record code.
enum DNSSDBytes {
    /// The byte `=`.
    static let equals: UInt8 = 0x3D
    /// The byte `\`.
    static let backslash: UInt8 = 0x5C
    /// The byte `.`.
    static let dot: UInt8 = 0x2E
    /// The byte `_`.
    static let underscore: UInt8 = 0x5F
    /// The byte `-`.
    static let hyphen: UInt8 = 0x2D

    /// Returns `byte` with ASCII upper-case letters mapped to lower case; other bytes unchanged.
    @inline(__always)
    static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }

    /// Whether two byte sequences are equal when ASCII letters are compared case-insensitively.
    static func asciiCaseInsensitiveEqual<A: Collection<UInt8>, B: Collection<UInt8>>(_ a: A, _ b: B) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { asciiLowercased($0) == asciiLowercased($1) }
    }

    /// Whether two strings are equal when ASCII letters are compared case-insensitively; the
    /// common case, equal strings, costs one comparison.
    static func asciiCaseInsensitiveEqual(_ a: String, _ b: String) -> Bool {
        a == b || asciiCaseInsensitiveEqual(a.utf8, b.utf8)
    }

    /// Feeds `string` to `hasher` with ASCII letters lower-cased, without making a new string
    /// (hashing is on every dictionary and set operation); the length ends it, so that two
    /// strings hashed one after the other cannot run together.
    static func hashASCIILowercased(_ string: String, into hasher: inout Hasher) {
        var words = LowercasedWords()
        for byte in string.utf8 { words.append(byte, into: &hasher) }
        words.finish(into: &hasher)
    }

    /// Feeds bytes to a hasher lower-cased, eight to a word: names are hashed on every
    /// dictionary and set operation, and a hasher call per byte was the querier's costliest
    /// function at 500 devices (perf). The count of bytes ends it (two sequences hashed one after
    /// the other cannot run together).
    struct LowercasedWords {
        private var word: UInt64 = 0
        private var count = 0

        @inline(__always)
        mutating func append(_ byte: UInt8, into hasher: inout Hasher) {
            word |= UInt64(DNSSDBytes.asciiLowercased(byte)) << UInt64((count & 7) * 8)
            count += 1
            if count & 7 == 0 {
                hasher.combine(word)
                word = 0
            }
        }

        mutating func finish(into hasher: inout Hasher) {
            if count & 7 != 0 { hasher.combine(word) }
            hasher.combine(count)
        }
    }

    /// The string with ASCII letters lower-cased; every other character unchanged.
    static func asciiLowercased(_ string: String) -> String {
        String(decoding: string.utf8.map(asciiLowercased), as: UTF8.self)
    }

    /// Whether `byte` is an ASCII digit.
    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// Whether `byte` is an ASCII letter.
    @inline(__always)
    static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// Decodes bytes as UTF-8, replacing invalid sequences with U+FFFD.
    static func decode<C: Collection<UInt8>>(_ bytes: C) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// A quoted, printable rendering of bytes: printable ASCII as-is, `"` and `\` backslash-escaped,
    /// every other byte as `\xHH`.
    static func quoted<C: Collection<UInt8>>(_ bytes: C) -> String {
        let hex: [Character] = Array("0123456789ABCDEF")
        var out = "\""
        for byte in bytes {
            switch byte {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x20...0x7E: out.append(Character(Unicode.Scalar(byte)))
            default:
                out += "\\x"
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        out += "\""
        return out
    }
}
