/// The number of terminal columns text occupies, and truncation and padding by columns.
///
/// Width is computed per grapheme cluster (Swift `Character`), from the cluster's first scalar
/// that is not zero-width:
///
/// - 2 columns when that scalar is East Asian Wide or Fullwidth (CJK, Hangul syllables, kana,
///   fullwidth forms, emoji with default emoji presentation) or a regional indicator (so a flag
///   is one 2-column cluster), or when the cluster is an emoji presentation sequence (an emoji
///   followed by U+FE0F, e.g. `❤️` or a keycap);
/// - 0 columns when every scalar is zero-width: nonspacing and enclosing marks (Mn, Me), format
///   characters (Cf, e.g. U+200B, U+200D), variation selectors, conjoining Hangul vowels and
///   finals, and control characters (sanitize text with `TerminalText` first);
/// - 1 column otherwise. East Asian Ambiguous characters, including `…`, count as 1.
///
/// The Wide/Fullwidth ranges come from Unicode 16.0 `EastAsianWidth.txt` (as shipped in the
/// ICU 76.1 data of the Swift 6.3 toolchain), with adjacent ranges merged across unassigned code
/// points; zero-width classification uses the standard library's Unicode properties. Terminals
/// differ on some sequences (a ZWJ sequence a font cannot join is drawn as several glyphs), so
/// the result is what well-behaved modern terminals show, not a guarantee.
enum DisplayWidth {
    /// How `pad(_:toWidth:alignment:)` places text within the width.
    enum Alignment: Sendable, Hashable {
        /// Text first, spaces after.
        case left
        /// Spaces first, text after (for numbers).
        case right
    }

    /// The ellipsis appended by `truncate(_:toWidth:)`; one column wide.
    static let ellipsis: Character = "…"

    /// The number of columns `text` occupies.
    static func width(of text: some StringProtocol) -> Int {
        var total = 0
        for character in text { total += width(of: character) }
        return total
    }

    /// The number of columns one grapheme cluster occupies: 0, 1 or 2.
    static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let base = scalars.first(where: { !isZeroWidth($0) }) else { return 0 }
        if isWide(base) { return 2 }
        if scalars.contains("\u{FE0F}") && base.properties.isEmoji { return 2 }
        return 1
    }

    /// Returns `text` cut to at most `width` columns on a grapheme boundary, ending in `…` when
    /// anything was cut. Text that fits is returned unchanged; a width of 0 or less gives "".
    static func truncate(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        if self.width(of: text) <= width { return text }
        let budget = width - 1
        var result = ""
        var used = 0
        for character in text {
            let columns = self.width(of: character)
            if used + columns > budget { break }
            result.append(character)
            used += columns
        }
        result.append(ellipsis)
        return result
    }

    /// Returns `text` padded with spaces to exactly `width` columns; text already at least that
    /// wide is returned unchanged.
    static func pad(_ text: String, toWidth width: Int, alignment: Alignment = .left) -> String {
        let missing = width - self.width(of: text)
        guard missing > 0 else { return text }
        let spaces = String(repeating: " ", count: missing)
        switch alignment {
        case .left: return text + spaces
        case .right: return spaces + text
        }
    }

    /// Whether a scalar takes no column of its own.
    static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1160...0x11FF, 0xD7B0...0xD7FF: return true  // conjoining Hangul vowels and finals
        default: break
        }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return true
        default: return false
        }
    }

    /// Whether a scalar is East Asian Wide/Fullwidth or a regional indicator.
    static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x1100 else { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideRanges[middle]
            if value < range.first {
                high = middle - 1
            } else if value > range.last {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }

    /// East_Asian_Width W and F, Unicode 16.0, sorted, merged across unassigned code points;
    /// plus the regional indicators U+1F1E6–U+1F1FF (Emoji_Presentation, but EAW N).
    static let wideRanges: [(first: UInt32, last: UInt32)] = [
        (0x1100, 0x115F), (0x231A, 0x231B), (0x2329, 0x232A), (0x23E9, 0x23EC),
        (0x23F0, 0x23F0), (0x23F3, 0x23F3), (0x25FD, 0x25FE), (0x2614, 0x2615),
        (0x2630, 0x2637), (0x2648, 0x2653), (0x267F, 0x267F), (0x268A, 0x268F),
        (0x2693, 0x2693), (0x26A1, 0x26A1), (0x26AA, 0x26AB), (0x26BD, 0x26BE),
        (0x26C4, 0x26C5), (0x26CE, 0x26CE), (0x26D4, 0x26D4), (0x26EA, 0x26EA),
        (0x26F2, 0x26F3), (0x26F5, 0x26F5), (0x26FA, 0x26FA), (0x26FD, 0x26FD),
        (0x2705, 0x2705), (0x270A, 0x270B), (0x2728, 0x2728), (0x274C, 0x274C),
        (0x274E, 0x274E), (0x2753, 0x2755), (0x2757, 0x2757), (0x2795, 0x2797),
        (0x27B0, 0x27B0), (0x27BF, 0x27BF), (0x2B1B, 0x2B1C), (0x2B50, 0x2B50),
        (0x2B55, 0x2B55), (0x2E80, 0x303E), (0x3041, 0x3247), (0x3250, 0xA4C6),
        (0xA960, 0xA97C), (0xAC00, 0xD7A3), (0xF900, 0xFAFF), (0xFE10, 0xFE19),
        (0xFE30, 0xFE6B), (0xFF01, 0xFF60), (0xFFE0, 0xFFE6), (0x16FE0, 0x1B2FB),
        (0x1D300, 0x1D376), (0x1F004, 0x1F004), (0x1F0CF, 0x1F0CF), (0x1F18E, 0x1F18E),
        (0x1F191, 0x1F19A), (0x1F1E6, 0x1F1FF), (0x1F200, 0x1F320), (0x1F32D, 0x1F335),
        (0x1F337, 0x1F37C), (0x1F37E, 0x1F393), (0x1F3A0, 0x1F3CA), (0x1F3CF, 0x1F3D3),
        (0x1F3E0, 0x1F3F0), (0x1F3F4, 0x1F3F4), (0x1F3F8, 0x1F43E), (0x1F440, 0x1F440),
        (0x1F442, 0x1F4FC), (0x1F4FF, 0x1F53D), (0x1F54B, 0x1F54E), (0x1F550, 0x1F567),
        (0x1F57A, 0x1F57A), (0x1F595, 0x1F596), (0x1F5A4, 0x1F5A4), (0x1F5FB, 0x1F64F),
        (0x1F680, 0x1F6C5), (0x1F6CC, 0x1F6CC), (0x1F6D0, 0x1F6D2), (0x1F6D5, 0x1F6DF),
        (0x1F6EB, 0x1F6EC), (0x1F6F4, 0x1F6FC), (0x1F7E0, 0x1F7F0), (0x1F90C, 0x1F93A),
        (0x1F93C, 0x1F945), (0x1F947, 0x1F9FF), (0x1FA70, 0x1FAF8), (0x20000, 0x3FFFD),
    ]
}
