import Testing
@testable import CastDiscovery

@Suite("DNSSDName escaping")
struct DNSSDNameTests {
    /// (raw label, escaped form as avahi_escape_label writes it)
    static let table: [(raw: String, escaped: String)] = [
        ("Chromecast Here", "Chromecast\\032Here"),
        ("a.b", "a\\.b"),
        ("a\\b", "a\\\\b"),
        ("Habitación", "Habitaci\\195\\179n"),
        ("Стас", "\\208\\161\\209\\130\\208\\176\\209\\129"),
        ("tab\there", "tab\\009here"),
        ("nl\n", "nl\\010"),
        ("\u{7F}", "\\127"),
        ("Chromecast-406c2bcdd5995755059b5bb045326056", "Chromecast-406c2bcdd5995755059b5bb045326056"),
        ("under_score-HYPHEN09", "under_score-HYPHEN09"),
        ("Tom's TV (2)", "Tom\\039s\\032TV\\032\\0402\\041"),
        ("50% off!", "50\\037\\032off\\033"),
        ("", ""),
    ]

    @Test("escape matches avahi", arguments: table)
    func escape(raw: String, escaped: String) {
        #expect(DNSSDName.escape(raw) == escaped)
        #expect(DNSSDName.escape(label: Array(raw.utf8)) == escaped)
    }

    @Test("unescape inverts escape", arguments: table)
    func unescape(raw: String, escaped: String) throws {
        #expect(try DNSSDName.unescape(escaped) == Array(raw.utf8))
        #expect(try DNSSDName.unescapeLabel(escaped) == raw)
    }

    @Test("every byte outside [A-Za-z0-9_-.\\\\] becomes three decimal digits")
    func escapeAllBytes() {
        for byte in UInt8.min...UInt8.max {
            let escaped = DNSSDName.escape(label: [byte])
            let scalar = Character(Unicode.Scalar(byte))
            if scalar.isASCII && (scalar.isLetter || scalar.isNumber || byte == 0x5F || byte == 0x2D) {
                #expect(escaped == String(scalar))
            } else if byte == 0x2E || byte == 0x5C {
                #expect(escaped == "\\" + String(scalar))
            } else {
                let digits = String(byte)
                #expect(escaped == "\\" + String(repeating: "0", count: 3 - digits.count) + digits)
            }
        }
    }

    @Test(
        "unescape accepts \\X for any other character and passes text through",
        arguments: [
            ("\\a\\b", [UInt8]("ab".utf8)),
            ("\\ ", [0x20]),
            ("\\é", Array("é".utf8)),
            ("plain text", Array("plain text".utf8)),
            ("Habitación", Array("Habitación".utf8)),
            ("a.b", Array("a.b".utf8)),
            ("\\000", [0]),
            ("\\255", [255]),
            ("\\0651", [0x41, 0x31]),
            ("\\\\\\.", [0x5C, 0x2E]),
        ] as [(String, [UInt8])])
    func unescapeLenient(text: String, bytes: [UInt8]) throws {
        #expect(try DNSSDName.unescape(text) == bytes)
    }

    @Test("unescapeLabel replaces invalid UTF-8 with U+FFFD")
    func unescapeLabelInvalidUTF8() throws {
        #expect(try DNSSDName.unescapeLabel("a\\255b") == "a\u{FFFD}b")
        #expect(try DNSSDName.unescapeLabel("\\195") == "\u{FFFD}")
    }

    @Test(
        "syntax errors name the offset",
        arguments: [
            ("abc\\", DNSSDNameError.trailingBackslash(offset: 3)),
            ("\\", .trailingBackslash(offset: 0)),
            ("a\\256", .decimalEscapeOutOfRange(offset: 1, value: 256)),
            ("\\999", .decimalEscapeOutOfRange(offset: 0, value: 999)),
            ("ab\\1", .incompleteDecimalEscape(offset: 2)),
            ("ab\\12", .incompleteDecimalEscape(offset: 2)),
            ("\\1a2", .incompleteDecimalEscape(offset: 0)),
            ("é\\0x", .incompleteDecimalEscape(offset: 2)),
        ])
    func unescapeErrors(text: String, error: DNSSDNameError) {
        #expect(throws: error) { try DNSSDName.unescape(text) }
        #expect(throws: error) { try DNSSDName.unescapeLabel(text) }
        #expect(error.description.contains("offset"))
    }

    @Test("unescape does not reject long labels")
    func unescapeLong() throws {
        let long = String(repeating: "x", count: 200)
        #expect(try DNSSDName.unescape(long).count == 200)
        #expect(throws: DNSSDNameError.labelTooLong(offset: 0, length: 200)) {
            try DNSSDName.validate(label: Array(long.utf8))
        }
        #expect(throws: DNSSDNameError.emptyLabel(offset: 0)) { try DNSSDName.validate(label: []) }
        try DNSSDName.validate(label: [UInt8](repeating: 0x61, count: 63))
    }

    @Test(
        "splitLabels splits on unescaped dots",
        arguments: [
            ("Living\\032Room._googlecast._tcp.local", ["Living Room", "_googlecast", "_tcp", "local"]),
            ("Living\\032Room._googlecast._tcp.local.", ["Living Room", "_googlecast", "_tcp", "local"]),
            ("a\\.b.c", ["a.b", "c"]),
            ("a\\046b.c", ["a.b", "c"]),
            ("a\\\\.b", ["a\\", "b"]),
            ("single", ["single"]),
            ("", []),
            (".", []),
        ] as [(String, [String])])
    func splitLabels(name: String, labels: [String]) throws {
        #expect(try DNSSDName.splitLabels(name) == labels.map { Array($0.utf8) })
    }

    @Test(
        "splitLabels rejects empty labels and bad escapes",
        arguments: [
            ("a..b", DNSSDNameError.emptyLabel(offset: 2)),
            (".a", .emptyLabel(offset: 0)),
            ("a..", .emptyLabel(offset: 2)),
            ("a.b\\", .trailingBackslash(offset: 3)),
            ("a.\\300", .decimalEscapeOutOfRange(offset: 2, value: 300)),
        ])
    func splitLabelsErrors(name: String, error: DNSSDNameError) {
        #expect(throws: error) { try DNSSDName.splitLabels(name) }
    }

    @Test("join escapes and joins labels")
    func join() {
        #expect(DNSSDName.join(labels: [Array("a.b".utf8), Array("c d".utf8)]) == "a\\.b.c\\032d")
        #expect(DNSSDName.join(labels: []) == "")
    }
}
