import CastSender
import Foundation
import Testing

@Suite("SDKVersion")
struct SDKVersionTests {
    @Test(
        "parses dotted versions",
        arguments: [
            ("4.8.3", [4, 8, 3]), ("12", [12]), ("15.0.1", [15, 0, 1]), ("04.8", [4, 8]),
            ("1.2.3.4", [1, 2, 3, 4]), ("0", [0]), ("999999999.1", [999_999_999, 1]),
        ])
    func parses(input: String, components: [Int]) throws {
        let version = try SDKVersion(parsing: input)
        #expect(version.components == components)
        #expect(version.description == components.map(String.init).joined(separator: "."))
    }

    @Test(
        "rejects garbage with the rule it breaks",
        arguments: [
            ("", SDKVersionError.empty),
            (" 4.8.3", .invalidCharacter(" 4.8.3")),
            ("4.8.3-beta", .invalidCharacter("4.8.3-beta")),
            ("v4", .invalidCharacter("v4")),
            ("-1", .invalidCharacter("-1")),
            ("４.8", .invalidCharacter("４.8")),
            ("4..8", .emptyComponent("4..8")),
            (".4", .emptyComponent(".4")),
            ("4.8.", .emptyComponent("4.8.")),
            (".", .emptyComponent(".")),
            ("1.2.3.4.5", .tooManyComponents("1.2.3.4.5")),
            ("1234567890", .componentTooLarge("1234567890")),
            ("4.\u{1B}[31m", .invalidCharacter("4.\u{1B}[31m")),
        ])
    func rejects(input: String, expected: SDKVersionError) {
        #expect(throws: expected) { try SDKVersion(parsing: input) }
    }

    @Test("error descriptions name the input safely")
    func errorDescription() {
        let error = SDKVersionError.invalidCharacter("4.\u{1B}[31m")
        #expect(
            error.description
                == #"invalid version "4.\u{1B}[31m": only digits separated by dots are allowed, like 4.8.3"#)
        #expect(!error.description.unicodeScalars.contains("\u{1B}"))
    }

    @Test(
        "orders component by component, missing parts being zero",
        arguments: [
            ("4.4.8", "4.5.0", true), ("4.5", "4.5.0", false), ("4.5.0", "4.5", false),
            ("4.8", "4.8.1", true), ("4.10.0", "4.9.9", false), ("4.9.9", "4.10", true),
            ("4.8.0.1", "4.8.1", true), ("0", "0.0.1", true), ("12", "11.7", false),
        ])
    func ordering(lhs: String, rhs: String, less: Bool) throws {
        #expect((try SDKVersion(parsing: lhs) < SDKVersion(parsing: rhs)) == less)
    }

    @Test(
        "equality and hashing ignore trailing zeros",
        arguments: [
            ("4.8", "4.8.0", true), ("4", "4.0.0.0", true), ("4.8.1", "4.8.10", false),
            ("04.08", "4.8", true),
        ])
    func equality(lhs: String, rhs: String, equal: Bool) throws {
        let a = try SDKVersion(parsing: lhs)
        let b = try SDKVersion(parsing: rhs)
        #expect((a == b) == equal)
        if equal { #expect(Set([a, b]).count == 1) }
    }

    @Test("encodes as a string and validates when decoding")
    func coding() throws {
        let data = try JSONEncoder().encode([SDKVersion(4, 8, 3)])
        #expect(String(decoding: data, as: UTF8.self) == #"["4.8.3"]"#)
        #expect(try JSONDecoder().decode([SDKVersion].self, from: data) == [SDKVersion(4, 8, 3)])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([SDKVersion].self, from: Data(#"["4.x"]"#.utf8))
        }
    }
}
