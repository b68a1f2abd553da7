import CastDiscovery

/// Makes untrusted text, such as device names received from the network, safe to print to a
/// terminal.
///
/// Which scalars are unsafe is the package's one rule, `TextSafety` in the core: controls (C0,
/// DEL, C1), line and paragraph separators, bidi controls and other invisible format characters.
/// Everything else, including combining marks, variation selectors and emoji, passes
/// unchanged. Backslashes are not doubled: the output is for people to read, not to parse.
enum TerminalText {
    /// How unsafe scalars are shown.
    enum Style: Sendable, Hashable {
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
    static func sanitize(_ text: String, style: Style = .escaped) -> String {
        guard TextSafety.containsUnsafe(text) else { return text }
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
            if TextSafety.isUnsafe(at: index, in: scalars) {
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
    static func isSafe(_ text: String) -> Bool {
        !TextSafety.containsUnsafe(text)
    }

    /// The visible `.escaped` form of one scalar.
    static func escape(_ scalar: Unicode.Scalar) -> String {
        if let byte = RawPath.isEscapedByte(scalar) { return "\\x" + hex(UInt32(byte), digits: 2) }
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
