@testable import CastDiscovery
import Foundation
import Testing

@Suite("JSON text: nesting checked before decoding, unsafe scalars escaped after encoding")
struct JSONSafetyTests {
    @Test("nesting past the limit is found in one pass; brackets inside strings do not count")
    func nesting() throws {
        try JSONSyntax.check(Array("[[[]]]".utf8), depthLimit: 3)
        #expect(throws: JSONSyntax.Failure.tooDeep(offset: 3, limit: 3)) {
            try JSONSyntax.check(Array("[[[{}]]]".utf8), depthLimit: 3)
        }
        try JSONSyntax.check(Array(#"{"a": "[[[[[[\"[[[["}"#.utf8), depthLimit: 1)
        let deep = Array(repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(throws: JSONSyntax.Failure.self) { try JSONSyntax.check(deep) }
    }

    @Test(
        "RFC 8259 text is accepted, numbers beyond a decoder's range too",
        arguments: [
            "0", "-0", "1.5e+3", "-12.25E-2", "1e400", "99999999999999999999", "true", "false", "null",
            #""a\u00e9\n\"\/""#, " [ ] ", "{}", #"{"a": [1, {"b": null}], "c": "d"}"#, "[[],[[]],{\"x\":{}}]",
            "\t\r\n[1]\n", "\u{FEFF}[1]",
        ])
    func valid(text: String) throws {
        try JSONSyntax.check(Array(text.utf8))
    }

    @Test(
        "text that is not JSON is refused at the byte where it goes wrong",
        arguments: [
            ("", 0), ("nope", 1), ("{\"a\": 1,}", 8), ("[1,]", 3), ("01", 1), ("1.", 2), ("-", 1), (".5", 0),
            ("1e", 2), ("[1 2]", 3), ("{\"a\" 1}", 5), ("{1: 2}", 1), ("\"a", 2), ("\"\\x\"", 2), ("\"\u{01}\"", 1),
            ("\"\\u12g4\"", 5), ("tru", 3), ("nul", 3), ("[1]]", 3), ("{} {}", 3), ("[", 1), ("\u{FEFF}", 3),
        ])
    func invalid(text: String, offset: Int) {
        do throws(JSONSyntax.Failure) {
            try JSONSyntax.check(Array(text.utf8))
            Issue.record("accepted \(text.debugDescription)")
        } catch {
            #expect(error == .invalid(offset: offset, expected: error.expected), "\(text.debugDescription): \(error)")
        }
    }

    @Test("every unsafe scalar becomes a \\u escape (surrogate pairs above U+FFFF); the value is unchanged")
    func escaping() throws {
        struct Value: Codable, Equatable { var name: String }
        for name in ["A\u{7F}\u{9B}\u{85}\u{202E}\u{2028}", "tag a\u{E0067}", "👨‍👩‍👧 fine", "plain"] {
            let encoded = JSONText.escapingUnsafeScalars(Array(try JSONEncoder().encode(Value(name: name))))
            #expect(!TextSafety.containsUnsafe(utf8: encoded), "\(String(decoding: encoded, as: UTF8.self))")
            #expect(try JSONDecoder().decode(Value.self, from: Data(encoded)) == Value(name: name))
        }
        let tag = String(decoding: JSONText.escapingUnsafeScalars(Array(#""a\#u{E0067}""#.utf8)), as: UTF8.self)
        #expect(tag == #""a\udb40\udc67""#)
    }

    @Test("a computed number of seconds becomes a duration without trapping")
    func durations() {
        #expect(Duration.seconds(clamping: 1.5) == .milliseconds(1500))
        #expect(Duration.seconds(clamping: -3) == .zero)
        #expect(Duration.seconds(clamping: .nan) == .zero)
        #expect(Duration.seconds(clamping: 1e300) == .seconds(Duration.longestSeconds))
        #expect(Duration.seconds(clamping: .infinity) == .seconds(Duration.longestSeconds))
    }
}
