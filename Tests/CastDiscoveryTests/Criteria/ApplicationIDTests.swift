import Foundation
import Testing

@testable import CastDiscovery

/// Validation, formatting, ordering and coding of ``ApplicationID``.
@Suite("ApplicationID")
struct ApplicationIDTests {
    @Test(
        "valid IDs are accepted and upper-cased",
        arguments: [
            ("CC1AD845", "CC1AD845"),
            ("cc1ad845", "CC1AD845"),
            ("Cc1Ad845", "CC1AD845"),
            ("233637de", "233637DE"),
            ("0", "0"),
            ("abcdef0123456789", "ABCDEF0123456789"),
            (String(repeating: "f", count: 32), String(repeating: "F", count: 32)),
        ])
    func valid(input: String, expected: String) throws {
        let id = try ApplicationID(input)
        #expect(id.rawValue == expected)
        #expect(id.description == expected)
        #expect(id.subtypeLabel == "_" + expected)
    }

    @Test(
        "IDs with non-hex characters are rejected",
        arguments: [
            "CC1AD84G", "xyz!", " CC1AD845", "CC1AD845 ", "CC1A D845", "CC1AD845\n", "\t",
            "١٢", "CC1AD８45", "0x1234", "-1", "ＣＣ", "CC1AD845\u{0}",
        ])
    func nonHex(input: String) {
        #expect(throws: DiscoveryCriteriaError.invalidApplicationIDCharacters(input)) {
            try ApplicationID(input)
        }
    }

    @Test("the empty ID is rejected")
    func empty() {
        #expect(throws: DiscoveryCriteriaError.emptyApplicationID) { try ApplicationID("") }
    }

    @Test("length bound: 32 accepted, 33 and 200 rejected", arguments: [33, 200])
    func tooLong(length: Int) {
        let input = String(repeating: "A", count: length)
        #expect(throws: DiscoveryCriteriaError.applicationIDTooLong(input)) {
            try ApplicationID(input)
        }
        #expect(ApplicationID.maximumLength == 32)
    }

    @Test("Default Media Receiver")
    func defaultMediaReceiver() throws {
        #expect(ApplicationID.defaultMediaReceiver.rawValue == "CC1AD845")
        #expect(ApplicationID.defaultMediaReceiver == (try ApplicationID("cc1ad845")))
        #expect(ApplicationID.defaultMediaReceiver.subtypeLabel == "_CC1AD845")
    }

    @Test("equality and hashing ignore input case")
    func equality() throws {
        let lower = try ApplicationID("233637de")
        let upper = try ApplicationID("233637DE")
        #expect(lower == upper)
        #expect(Set([lower, upper]).count == 1)
        #expect(lower != ApplicationID.defaultMediaReceiver)
    }

    @Test("ordering follows the upper-case value")
    func ordering() throws {
        let ids = try ["cc1ad845", "233637DE", "0", "AB", "ab0"].map { try ApplicationID($0) }
        #expect(ids.sorted().map(\.rawValue) == ["0", "233637DE", "AB", "AB0", "CC1AD845"])
        #expect(try ApplicationID("A") < ApplicationID("b"))
    }

    @Test("encodes as a single upper-case string and round-trips")
    func codableRoundTrip() throws {
        let id = try ApplicationID("cc1ad845")
        let data = try JSONEncoder().encode([id])
        #expect(String(decoding: data, as: UTF8.self) == #"["CC1AD845"]"#)
        #expect(try JSONDecoder().decode([ApplicationID].self, from: data) == [id])
    }

    @Test("decoding upper-cases valid lower-case input")
    func decodeLowercase() throws {
        let decoded = try JSONDecoder().decode([ApplicationID].self, from: Data(#"["233637de"]"#.utf8))
        #expect(decoded.map(\.rawValue) == ["233637DE"])
    }

    @Test("decoding an invalid ID fails with the validation error", arguments: [#"["CC1AD84G"]"#, #"[""]"#, "[42]"])
    func decodeInvalid(json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([ApplicationID].self, from: Data(json.utf8))
        }
    }

    @Test("the decoding error carries the criteria error")
    func decodeInvalidUnderlyingError() {
        do {
            _ = try JSONDecoder().decode([ApplicationID].self, from: Data(#"["xyz!"]"#.utf8))
            Issue.record("decoding an invalid ID succeeded")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(
                context.underlyingError as? DiscoveryCriteriaError
                    == .invalidApplicationIDCharacters("xyz!"))
            #expect(context.debugDescription.contains("xyz!"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
