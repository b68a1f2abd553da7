/// Quoting of untrusted text (values read from a file or the network, user input) for
/// messages: the one quoting every module of the package uses.
///
/// The result is a double-quoted string in which nothing can act on a terminal or hide text:
/// every scalar ``TextSafety`` calls unsafe (controls, bidi and other format characters, line
/// and paragraph separators), the quote and the backslash are written as Swift escapes (`\n`,
/// `\t`, `\r`, `\"`, `\\`, `\u{1B}`).
package enum SafeText {
    /// The number of characters kept before a quoted value is shortened with `…`.
    package static let defaultLimit = 64

    /// `text` quoted and escaped as described on ``SafeText``, shortened to `limit` characters.
    package static func quoted(_ text: String, limit: Int = defaultLimit) -> String {
        let scalars = Array(text.unicodeScalars)
        var out = "\""
        var count = 0
        var index = 0
        for character in text {
            if count == limit {
                out += "…"
                break
            }
            count += 1
            for scalar in character.unicodeScalars {
                out += escaped(scalar, unsafe: TextSafety.isUnsafe(at: index, in: scalars))
                index += 1
            }
        }
        return out + "\""
    }

    /// Whether `text` contains a scalar ``quoted(_:limit:)`` would escape (other than `"` and `\`).
    package static func containsUnsafeScalars(_ text: String) -> Bool {
        TextSafety.containsUnsafe(text)
    }

    private static func escaped(_ scalar: Unicode.Scalar, unsafe: Bool) -> String {
        switch scalar {
        case "\"": return "\\\""
        case "\\": return "\\\\"
        case "\n": return "\\n"
        case "\t": return "\\t"
        case "\r": return "\\r"
        default:
            if unsafe {
                return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
            return String(scalar)
        }
    }
}
