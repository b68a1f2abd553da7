/// DNS-SD names in the escaped presentation form avahi uses (`avahi_escape_label` /
/// `avahi_unescape_label`), as printed by `avahi-browse -p`.
///
/// Escaping keeps `[A-Za-z0-9_-]`, writes `.` and `\` as `\.` and `\\`, and every other byte as
/// `\DDD` (three decimal digits). Unescaping accepts `\DDD` (value 0-255), `\X` for any other
/// character X (meaning X), and passes everything else through as its UTF-8 bytes.
public enum DNSSDName {
    /// The longest label DNS allows, in bytes.
    public static let maximumLabelLength = 63

    /// The escaped presentation form of one label given as raw bytes.
    public static func escape(label: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(label.count)
        for byte in label {
            switch byte {
            case DNSSDBytes.dot, DNSSDBytes.backslash:
                out.append(DNSSDBytes.backslash)
                out.append(byte)
            case DNSSDBytes.underscore, DNSSDBytes.hyphen:
                out.append(byte)
            case _ where DNSSDBytes.isDigit(byte) || DNSSDBytes.isLetter(byte):
                out.append(byte)
            default:
                out.append(DNSSDBytes.backslash)
                out.append(0x30 + byte / 100)
                out.append(0x30 + (byte / 10) % 10)
                out.append(0x30 + byte % 10)
            }
        }
        // Every byte written is ASCII, so the decode is exact.
        return DNSSDBytes.decode(out)
    }

    /// The escaped presentation form of one label given as text (its UTF-8 bytes are escaped).
    public static func escape(_ label: String) -> String {
        escape(label: Array(label.utf8))
    }

    /// The raw bytes of one escaped label. An unescaped `.` is kept as a literal dot; only syntax
    /// errors are reported, not length.
    public static func unescape(_ text: String) throws(DNSSDNameError) -> [UInt8] {
        try scanLabel(Array(text.utf8), from: 0, stopAtDot: false).bytes
    }

    /// One escaped label decoded as UTF-8 text, with invalid bytes replaced by U+FFFD.
    public static func unescapeLabel(_ text: String) throws(DNSSDNameError) -> String {
        DNSSDBytes.decode(try unescape(text))
    }

    /// The raw labels of a full escaped name such as `Living\032Room._googlecast._tcp.local`,
    /// split on unescaped dots. A trailing dot is allowed; `""` and `"."` give no labels.
    public static func splitLabels(_ escapedName: String) throws(DNSSDNameError) -> [[UInt8]] {
        try scanLabels(escapedName).map(\.bytes)
    }

    /// The escaped name made of `labels`, joined with dots (no trailing dot).
    public static func join(labels: [[UInt8]]) -> String {
        labels.map { escape(label: $0) }.joined(separator: ".")
    }

    /// Checks that a raw label is 1 to 63 bytes long.
    public static func validate(label: [UInt8]) throws(DNSSDNameError) {
        if label.isEmpty { throw .emptyLabel(offset: 0) }
        if label.count > maximumLabelLength { throw .labelTooLong(offset: 0, length: label.count) }
    }

    /// The labels of an escaped name with the UTF-8 offset where each starts.
    static func scanLabels(_ escapedName: String) throws(DNSSDNameError) -> [(bytes: [UInt8], offset: Int)] {
        let input = Array(escapedName.utf8)
        if input.isEmpty || input == [DNSSDBytes.dot] { return [] }
        var labels: [(bytes: [UInt8], offset: Int)] = []
        var position = 0
        while position < input.count {
            let (bytes, end) = try scanLabel(input, from: position, stopAtDot: true)
            if bytes.isEmpty && end == position { throw .emptyLabel(offset: position) }
            labels.append((bytes, position))
            // `end` is at a dot or at the end of the input.
            position = end + 1
            if position == input.count, end < input.count {
                break  // trailing dot
            }
        }
        return labels
    }

    /// Unescapes from `start` up to an unescaped dot (when `stopAtDot`) or the end of `input`;
    /// returns the bytes and the index where it stopped.
    static func scanLabel(_ input: [UInt8], from start: Int, stopAtDot: Bool) throws(DNSSDNameError) -> (
        bytes: [UInt8], end: Int
    ) {
        var out: [UInt8] = []
        var index = start
        while index < input.count {
            let byte = input[index]
            if stopAtDot && byte == DNSSDBytes.dot { break }
            guard byte == DNSSDBytes.backslash else {
                out.append(byte)
                index += 1
                continue
            }
            let next = index + 1
            guard next < input.count else { throw .trailingBackslash(offset: index) }
            let escaped = input[next]
            guard DNSSDBytes.isDigit(escaped) else {
                out.append(escaped)
                index = next + 1
                continue
            }
            guard next + 2 < input.count,
                DNSSDBytes.isDigit(input[next + 1]),
                DNSSDBytes.isDigit(input[next + 2])
            else {
                throw .incompleteDecimalEscape(offset: index)
            }
            let value = Int(escaped - 0x30) * 100 + Int(input[next + 1] - 0x30) * 10 + Int(input[next + 2] - 0x30)
            guard value <= 255 else { throw .decimalEscapeOutOfRange(offset: index, value: value) }
            out.append(UInt8(value))
            index = next + 3
        }
        return (out, index)
    }
}
