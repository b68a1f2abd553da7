/// The one rule, for every output of the package (tables, messages, JSON), of which scalars of
/// untrusted text (names from the network, values from files, user input) are unsafe to show
/// raw.
///
/// A scalar is *unsafe* when a terminal would act on it instead of drawing it, or when it is
/// invisible and could make one name look like another:
///
/// - C0 controls U+0000–U+001F (including tab, newline and ESC), DEL U+007F, and the C1
///   controls U+0080–U+009F (U+009B is the 8-bit CSI);
/// - the line and paragraph separators U+2028 and U+2029;
/// - bidirectional controls: U+061C, U+200E, U+200F, the embeddings and overrides
///   U+202A–U+202E and the isolates U+2066–U+2069;
/// - every other format character (general category Cf, e.g. U+200B ZERO WIDTH SPACE,
///   U+2060 WORD JOINER, U+FEFF, U+00AD SOFT HYPHEN, the tag characters), with the exceptions
///   real names need: U+200D ZERO WIDTH JOINER between two emoji (`👨‍👩‍👧`), the tag
///   characters U+E0020–U+E007F following an emoji (subdivision flags such as `🏴󠁧󠁢󠁳󠁣󠁴󠁿`), and
///   U+200C ZERO WIDTH NON-JOINER between two letters (Persian, Indic scripts);
/// - the noncharacters U+FFFE and U+FFFF;
/// - the private-use block U+10FE00–U+10FEFF, which ``RawPath`` uses for the bytes of file
///   names that are not UTF-8 (shown as those bytes, `\xFF`).
///
/// Everything else, including combining marks, variation selectors, emoji and the other
/// private-use characters (which terminals draw), is safe.
package enum TextSafety {
    /// Whether the scalar at `index` of `scalars` is unsafe; its neighbours decide for ZWJ,
    /// ZWNJ and tag characters.
    package static func isUnsafe(at index: Int, in scalars: [Unicode.Scalar]) -> Bool {
        let value = scalars[index].value
        switch value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0xFFFE, 0xFFFF:
            return true
        case 0x20...0x7E:
            return false
        case 0x200D:
            return !(isEmojiBase(before: index, in: scalars) && isEmoji(at: index + 1, in: scalars))
        case 0x200C:
            return !(isLetter(at: index - 1, in: scalars) && isLetter(at: index + 1, in: scalars))
        case 0x10FE00...0x10FEFF:
            // RawPath's stand-ins for bytes that are not UTF-8: shown as the bytes.
            return true
        case 0xE0020...0xE007F:
            return !isEmojiBase(before: index, in: scalars, skippingTags: true)
        default:
            return scalars[index].properties.generalCategory == .format
        }
    }

    /// Whether `text` holds an unsafe scalar.
    package static func containsUnsafe(_ text: String) -> Bool {
        var utf8 = text.utf8.makeIterator()
        var asciiOnly = true
        while let byte = utf8.next() {
            if byte < 0x20 || byte == 0x7F { return true }
            if byte >= 0x80 { asciiOnly = false }
        }
        if asciiOnly { return false }
        let scalars = Array(text.unicodeScalars)
        return scalars.indices.contains { isUnsafe(at: $0, in: scalars) }
    }

    /// Whether valid UTF-8 `bytes` hold an unsafe scalar. Bytes that are not UTF-8 are read
    /// with U+FFFD in place of each invalid sequence.
    package static func containsUnsafe(utf8 bytes: some Collection<UInt8>) -> Bool {
        var asciiOnly = true
        for byte in bytes {
            if byte < 0x20 || byte == 0x7F { return true }
            if byte >= 0x80 { asciiOnly = false }
        }
        if asciiOnly { return false }
        return containsUnsafe(String(decoding: bytes, as: UTF8.self))
    }

    /// Whether the nearest preceding scalar, skipping emoji modifiers, variation selectors and
    /// (optionally) tags, is an emoji.
    private static func isEmojiBase(before index: Int, in scalars: [Unicode.Scalar], skippingTags: Bool = false) -> Bool
    {
        var position = index - 1
        while position >= 0 {
            let scalar = scalars[position]
            let skippable =
                scalar.properties.isEmojiModifier
                || (0xFE00...0xFE0F).contains(scalar.value)
                || (skippingTags && (0xE0020...0xE007F).contains(scalar.value))
            if !skippable { return isEmoji(at: position, in: scalars) }
            position -= 1
        }
        return false
    }

    /// Whether the scalar at `index` exists and is a non-ASCII emoji (ASCII digits, `#` and `*`
    /// carry the Emoji property but never start a ZWJ sequence).
    private static func isEmoji(at index: Int, in scalars: [Unicode.Scalar]) -> Bool {
        guard scalars.indices.contains(index) else { return false }
        let scalar = scalars[index]
        return !scalar.isASCII && scalar.properties.isEmoji
    }

    private static func isLetter(at index: Int, in scalars: [Unicode.Scalar]) -> Bool {
        guard scalars.indices.contains(index) else { return false }
        switch scalars[index].properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark:
            return true
        default:
            return false
        }
    }
}
