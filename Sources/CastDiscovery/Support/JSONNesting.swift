/// A check of how deeply JSON text nests, made before decoding it: a file of nothing but
/// brackets would otherwise cost a decoder memory and time far out of proportion to its size.
package enum JSONNesting {
    /// The deepest nesting the package's file formats need is a handful of levels; 64 leaves
    /// room and stops the pathological cases.
    package static let defaultLimit = 64

    /// Why the text was refused.
    package struct TooDeep: Error, Sendable, Hashable, CustomStringConvertible {
        /// The byte offset of the bracket that went past the limit.
        package var offset: Int
        /// The limit.
        package var limit: Int

        package var description: String {
            "nested more than \(limit) levels deep (at byte \(offset))"
        }
    }

    /// Checks that no array or object in `bytes` lies more than `limit` levels deep, in one pass
    /// over the bytes (brackets inside strings do not count). Says nothing about whether the
    /// text is otherwise valid JSON.
    package static func check(_ bytes: some Collection<UInt8>, limit: Int = defaultLimit) throws(TooDeep) {
        var depth = 0
        var inString = false
        var escaped = false
        var offset = 0
        for byte in bytes {
            defer { offset += 1 }
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth > limit { throw TooDeep(offset: offset, limit: limit) }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth = max(0, depth - 1)
            default:
                break
            }
        }
    }
}
