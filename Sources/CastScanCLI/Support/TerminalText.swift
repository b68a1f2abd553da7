/// Makes untrusted text, such as device names received from the network, safe to print to a
/// terminal.
///
/// A scalar is *unsafe* when a terminal would act on it instead of drawing it, or when it is
/// invisible and could make one name look like another:
///
/// - C0 controls U+0000–U+001F (including tab, newline and ESC), DEL U+007F, and the C1
///   controls U+0080–U+009F;
/// - the line and paragraph separators U+2028 and U+2029;
/// - bidirectional controls: U+061C, U+200E, U+200F, the embeddings and overrides
///   U+202A–U+202E and the isolates U+2066–U+2069;
/// - every other format character (general category Cf, e.g. U+200B ZERO WIDTH SPACE,
///   U+2060 WORD JOINER, U+FEFF, U+00AD SOFT HYPHEN, the tag characters), with two exceptions
///   that real names need: U+200D ZERO WIDTH JOINER between two emoji (`👨‍👩‍👧`) and the
///   tag characters U+E0020–U+E007F following an emoji (subdivision flags such as `🏴󠁧󠁢󠁳󠁣󠁴󠁿`);
///   U+200C ZERO WIDTH NON-JOINER is allowed between two letters (Persian, Indic scripts);
/// - the noncharacters U+FFFE and U+FFFF.
///
/// Everything else, including combining marks, variation selectors and emoji, passes
/// unchanged. Backslashes are not doubled: the output is for people to read, not to parse.
public enum TerminalText {
    /// How unsafe scalars are shown.
    public enum Style: Sendable, Hashable {
        /// Each unsafe scalar becomes a visible escape, so the reader sees what was sent:
        /// `\e` for ESC, `\n`, `\r` and `\t`, `\xHH` for the other C0 controls and DEL, and
        /// `\u{H…}` (Swift literal syntax) for everything else (C1 controls, bidi and format characters).
        ///
        /// An escape sequence is therefore shown in full, e.g. `ESC [ 3 1 m` becomes `\e[31m`;
        /// its printable bytes are harmless once ESC is gone.
        case escaped

        /// Each escape sequence (a CSI `ESC [ … final`, a string command such as OSC
        /// `ESC ] … BEL/ST`, any other `ESC …` sequence, or a lone ESC) and each other unsafe
        /// scalar becomes a single U+FFFD REPLACEMENT CHARACTER. An unterminated string command
        /// runs to the end of the text, as it would in a terminal.
        case replaced
    }

    /// Returns `text` with every unsafe scalar shown according to `style`.
    public static func sanitize(_ text: String, style: Style = .escaped) -> String {
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if style == .replaced, let end = escapeSequenceEnd(in: scalars, at: index) {
                output.append("\u{FFFD}")
                index = end
                continue
            }
            if isUnsafe(at: index, in: scalars) {
                switch style {
                case .escaped: output.append(contentsOf: escape(scalar).unicodeScalars)
                case .replaced: output.append("\u{FFFD}")
                }
            } else {
                output.append(scalar)
            }
            index += 1
        }
        return String(output)
    }

    /// Returns whether `text` would print unchanged, i.e. contains no unsafe scalar.
    public static func isSafe(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        return scalars.indices.allSatisfy { !isUnsafe(at: $0, in: scalars) }
    }

    /// The visible `.escaped` form of one scalar.
    static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x1B: return "\\e"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x09: return "\\t"
        case 0x00...0x1F, 0x7F: return "\\x" + hex(scalar.value, digits: 2)
        default: return "\\u{" + hex(scalar.value, digits: 1) + "}"
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    /// Whether the scalar at `index` must not be printed raw; context decides for ZWJ, ZWNJ
    /// and tag characters.
    static func isUnsafe(at index: Int, in scalars: [Unicode.Scalar]) -> Bool {
        let value = scalars[index].value
        switch value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0xFFFE, 0xFFFF:
            return true
        case 0x200D:
            return !(isEmojiBase(before: index, in: scalars) && isEmoji(at: index + 1, in: scalars))
        case 0x200C:
            return !(isLetter(at: index - 1, in: scalars) && isLetter(at: index + 1, in: scalars))
        case 0xE0020...0xE007F:
            return !isEmojiBase(before: index, in: scalars, skippingTags: true)
        default:
            return scalars[index].properties.generalCategory == .format
        }
    }

    /// Whether the nearest preceding scalar, skipping emoji modifiers, variation selectors and
    /// (optionally) tags, is an emoji.
    private static func isEmojiBase(before index: Int, in scalars: [Unicode.Scalar], skippingTags: Bool = false) -> Bool {
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

    /// If an escape sequence (7-bit `ESC …` or an 8-bit C1 introducer) starts at `start`,
    /// returns the index just past it (ECMA-48 syntax).
    static func escapeSequenceEnd(in scalars: [Unicode.Scalar], at start: Int) -> Int? {
        let first = scalars[start].value
        var index = start + 1
        let next: UInt32? = index < scalars.count ? scalars[index].value : nil
        let kind: UInt32
        switch first {
        case 0x1B:
            guard let next, (0x20...0x7E).contains(next) else { return index }  // lone ESC
            switch next {
            case 0x5B, 0x5D, 0x50, 0x58, 0x5E, 0x5F:  // [ ] P X ^ _
                kind = next
                index += 1
            default:  // nF (intermediates then a final byte) or a two-byte Fp/Fe/Fs sequence
                while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
                if index < scalars.count, (0x30...0x7E).contains(scalars[index].value) { index += 1 }
                return index
            }
        case 0x9B: kind = 0x5B  // CSI
        case 0x9D: kind = 0x5D  // OSC
        case 0x90: kind = 0x50  // DCS
        case 0x98: kind = 0x58  // SOS
        case 0x9E: kind = 0x5E  // PM
        case 0x9F: kind = 0x5F  // APC
        default: return nil
        }
        if kind == 0x5B {
            // Parameter bytes, intermediate bytes, one final byte.
            while index < scalars.count, (0x30...0x3F).contains(scalars[index].value) { index += 1 }
            while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
            if index < scalars.count, (0x40...0x7E).contains(scalars[index].value) { index += 1 }
            return index
        }
        // A string command: runs to BEL, ST (ESC \ or U+009C), or the end of the text.
        while index < scalars.count {
            switch scalars[index].value {
            case 0x07, 0x9C: return index + 1
            case 0x1B where index + 1 < scalars.count && scalars[index + 1].value == 0x5C: return index + 2
            default: index += 1
            }
        }
        return index
    }
}
