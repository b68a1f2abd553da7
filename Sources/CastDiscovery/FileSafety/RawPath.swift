#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// File names that are not UTF-8, carried through `String`s without losing a byte.
///
/// A Linux file name is any sequence of bytes but NUL. Swift strings hold Unicode, and reading
/// `argv` or the environment as UTF-8 with repair turns each invalid byte into U+FFFD, so
/// `--replay $'r\xff.json'` would name another file. ``decode(_:)`` instead maps each byte of an
/// invalid sequence to one scalar of a reserved private-use block (U+10FE00 + byte), and
/// ``bytes(of:)`` maps them back, so the bytes reach `open(2)` exactly as given. The mapping is
/// one-to-one: a valid UTF-8 encoding of a scalar of the block itself is escaped byte by byte
/// too, so no other text decodes to the same string.
///
/// Every call that hands a path to the system goes through ``withCString(_:_:)``; messages
/// show such bytes as `\xFF` (``isEscapedByte(_:)``).
package enum RawPath {
    /// The first scalar of the block that stands for the bytes 0x00...0xFF.
    private static let base: UInt32 = 0x10FE00

    /// Whether `scalar` stands for a byte of a name that is not UTF-8, and which.
    package static func isEscapedByte(_ scalar: Unicode.Scalar) -> UInt8? {
        scalar.value >= base && scalar.value <= base + 0xFF ? UInt8(scalar.value - base) : nil
    }

    /// A string for `bytes` (a C string's bytes, without the NUL): the UTF-8 they hold, with
    /// every byte of an invalid sequence kept as its escape scalar.
    package static func decode(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            if let (scalar, length) = scalar(in: bytes, at: index), isEscapedByte(scalar) == nil {
                scalars.append(scalar)
                index += length
            } else {
                scalars.append(Unicode.Scalar(base + UInt32(bytes[index]))!)
                index += 1
            }
        }
        return String(scalars)
    }

    /// The bytes `path` names: its UTF-8, with every escape scalar turned back into its byte.
    package static func bytes(of path: String) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        for scalar in path.unicodeScalars {
            if let byte = isEscapedByte(scalar) {
                out.append(byte)
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return out
    }

    /// Calls `body` with `path`'s bytes as a NUL-terminated C string.
    package static func withCString<Result, Failure: Error>(
        _ path: String, _ body: (UnsafePointer<CChar>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var bytes = bytes(of: path).map { CChar(bitPattern: $0) }
        bytes.append(0)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> Result in try body(buffer.baseAddress!) }
    }

    /// `path` made absolute against the working directory read as bytes (Foundation reads it
    /// with U+FFFD repair, so a relative path under a directory that is not UTF-8 would name
    /// another file); an absolute path, or one when the directory cannot be read, unchanged.
    package static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        var buffer = [CChar](repeating: 0, count: 4097)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let directory = decode(buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
        return (directory == "/" ? "" : directory) + "/" + path
    }

    /// `path` for a message: each escaped byte as `\xHH`, the rest unchanged.
    package static func display(_ path: String) -> String {
        guard path.unicodeScalars.contains(where: { isEscapedByte($0) != nil }) else { return path }
        var out = ""
        for scalar in path.unicodeScalars {
            if let byte = isEscapedByte(scalar) {
                out += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The scalar whose well-formed UTF-8 starts at `index`, and its length; nil when the bytes
    /// there are not well-formed UTF-8 (Unicode 15, table 3-7).
    private static func scalar(in bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        let secondRange: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF: (length, secondRange) = (2, 0x80...0xBF)
        case 0xE0: (length, secondRange) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, secondRange) = (3, 0x80...0xBF)
        case 0xED: (length, secondRange) = (3, 0x80...0x9F)
        case 0xF0: (length, secondRange) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, secondRange) = (4, 0x80...0xBF)
        case 0xF4: (length, secondRange) = (4, 0x80...0x8F)
        default: return nil
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]) else { return nil }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard offset == 1 || (0x80...0xBF).contains(byte) else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        return Unicode.Scalar(value).map { ($0, length) }
    }
}
