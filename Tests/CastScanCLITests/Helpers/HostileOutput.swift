/// Checks of text a terminal would receive.
enum HostileOutput {
    /// The scalars in `text` a terminal would act on or that hide text: C0 controls other than
    /// the line feed ending a line, DEL, C1 controls, the bidi controls and the line and
    /// paragraph separators; each with its offset in scalars. A tab is allowed only when
    /// `allowingTabs` (the tool's own indentation, e.g. in XML it prints).
    static func unsafeScalars(in text: String, allowingTabs: Bool = false) -> [String] {
        var found: [String] = []
        for (offset, scalar) in text.unicodeScalars.enumerated() {
            let value = scalar.value
            let unsafe =
                (value < 0x20 && value != 0x0A && !(allowingTabs && value == 0x09)) || (0x7F...0x9F).contains(value)
                || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
                || value == 0x200E || value == 0x200F || value == 0x061C || value == 0x2028 || value == 0x2029
            if unsafe { found.append("U+\(String(value, radix: 16, uppercase: true)) at \(offset)") }
        }
        return found
    }
}
