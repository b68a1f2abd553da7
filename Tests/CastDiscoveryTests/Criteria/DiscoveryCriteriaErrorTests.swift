import Testing

@testable import CastDiscovery

/// The messages of ``DiscoveryCriteriaError`` name the offending input and the rule.
@Suite("DiscoveryCriteriaError")
struct DiscoveryCriteriaErrorTests {
    @Test(
        "exact messages",
        arguments: [
            (
                DiscoveryCriteriaError.invalidApplicationIDCharacters("xyz!"),
                #"invalid application ID "xyz!": only hexadecimal digits 0-9 and A-F are allowed"#
            ),
            (.emptyApplicationID, #"invalid application ID "": an application ID cannot be empty"#),
            (
                .invalidApplicationIDCharacters(" CC1AD845\t"),
                #"invalid application ID " CC1AD845\t": only hexadecimal digits 0-9 and A-F are allowed"#
            ),
            (.emptyNamespace, #"invalid namespace "": a namespace cannot be empty"#),
            (
                .namespaceMissingCastPrefix("com.example"),
                #"invalid namespace "com.example": a namespace must begin with "urn:x-cast:""#
            ),
            (
                .namespaceMissingSuffix("urn:x-cast:"),
                #"invalid namespace "urn:x-cast:": a namespace must continue after "urn:x-cast:""#
            ),
        ])
    func messages(error: DiscoveryCriteriaError, expected: String) {
        #expect(error.description == expected)
        #expect("\(error)" == expected)
    }

    @Test("thrown errors name the offending input", arguments: ["CC1AD84G", "١٢", "cc 1a"])
    func thrownMessageContainsInput(input: String) {
        do {
            _ = try ApplicationID(input)
            Issue.record("\(input) was accepted")
        } catch {
            #expect(error.description.contains("\"\(input)\""))
            #expect(error.description.contains("0-9 and A-F"))
            #expect(error.input == input)
        }
    }

    @Test("long inputs are shortened to 64 characters and report their length")
    func longInputs() {
        let id = String(repeating: "A", count: 200)
        let idMessage = DiscoveryCriteriaError.applicationIDTooLong(id).description
        #expect(
            idMessage == "invalid application ID \"\(String(repeating: "A", count: 64))…\": "
                + "it is 200 characters long, at most 32 are allowed")

        let namespace = "urn:x-cast:" + String(repeating: "n", count: 189)
        let namespaceMessage = DiscoveryCriteriaError.namespaceTooLong(namespace).description
        #expect(namespaceMessage.contains("\"\(namespace.prefix(64))…\""))
        #expect(namespaceMessage.contains("200 UTF-16 code units long, at most 128 are allowed"))
        #expect(DiscoveryCriteriaError.namespaceTooLong(namespace).input == namespace)
    }

    @Test("a 64-character input is quoted whole")
    func sixtyFourCharacters() {
        let input = String(repeating: "Z", count: 64)
        #expect(
            DiscoveryCriteriaError.invalidApplicationIDCharacters(input).description
                == "invalid application ID \"\(input)\": only hexadecimal digits 0-9 and A-F are allowed")
    }

    @Test("empty cases report an empty input")
    func emptyInput() {
        #expect(DiscoveryCriteriaError.emptyApplicationID.input == "")
        #expect(DiscoveryCriteriaError.emptyNamespace.input == "")
    }
}
