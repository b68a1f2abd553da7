@testable import CastDiscovery
import Foundation
import Testing

@Suite("JSON text: nesting checked before decoding, unsafe scalars escaped after encoding")
struct JSONSafetyTests {
    @Test("nesting past the limit is found in one pass; brackets inside strings do not count")
    func nesting() throws {
        try JSONNesting.check(Array("[[[]]]".utf8), limit: 3)
        #expect(throws: JSONNesting.TooDeep(offset: 3, limit: 3)) { try JSONNesting.check(Array("[[[{}]]]".utf8), limit: 3) }
        try JSONNesting.check(Array(#"{"a": "[[[[[[\"[[[["}"#.utf8), limit: 1)
        let deep = Array(repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(throws: JSONNesting.TooDeep.self) { try JSONNesting.check(deep) }
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
