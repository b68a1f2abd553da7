extension TXTRecord: CustomStringConvertible {
    /// The entries as a list of quoted strings (non-printable bytes written as `\xHH`), followed by
    /// any issues.
    public var description: String {
        var text = "[" + entries.map(\.description).joined(separator: ", ") + "]"
        if !issues.isEmpty {
            text += " (issues: " + issues.map(\.description).joined(separator: "; ") + ")"
        }
        return text
    }
}
