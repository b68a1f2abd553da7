import Foundation
import Testing

@testable import CastDiscovery

/// Construction, normalisation and the derived DNS-SD names of ``DiscoveryCriteria``.
@Suite("DiscoveryCriteria")
struct DiscoveryCriteriaTests {
    static let media = "urn:x-cast:com.google.cast.media"
    static let mediaLabel = "_%9E5E7C8F47989526C9BCD95D24084F6F0B27C5ED"
    static let receiver = "urn:x-cast:com.google.cast.receiver"
    static let receiverLabel = "_%0AAFDA3F6A9665253EB1F664141048125FF802A8"

    @Test(
        "application IDs are upper-cased, de-duplicated and keep first-given order",
        arguments: [
            (["cc1ad845"], ["CC1AD845"]),
            (["233637de", "CC1AD845", "cc1ad845", "233637DE"], ["233637DE", "CC1AD845"]),
            (["B", "a", "b", "A", "c"], ["B", "A", "C"]),
            ([String](), [String]()),
        ])
    func applicationIDOrder(input: [String], expected: [String]) throws {
        let criteria = try DiscoveryCriteria(applicationIDs: input)
        #expect(criteria.applicationIDs.map(\.rawValue) == expected)
        #expect(criteria.hasApplicationIDs == !expected.isEmpty)
        #expect(criteria.namespaces.isEmpty)
        #expect(criteria.hasNamespaces == false)
    }

    @Test("namespaces are de-duplicated and sorted")
    func namespaceOrder() throws {
        let criteria = try DiscoveryCriteria(namespaces: [
            "urn:x-cast:z", Self.receiver, "urn:x-cast:a", Self.media, "urn:x-cast:z",
        ])
        #expect(criteria.namespaces == ["urn:x-cast:a", Self.media, Self.receiver, "urn:x-cast:z"])
        #expect(criteria.hasNamespaces)
        #expect(criteria.hasApplicationIDs == false)
    }

    @Test("a Set of namespaces gives the same criteria as an array")
    func namespaceSet() throws {
        let fromSet = try DiscoveryCriteria(namespaces: Set([Self.receiver, Self.media]))
        let fromArray = try DiscoveryCriteria(namespaces: [Self.media, Self.receiver, Self.media])
        #expect(fromSet == fromArray)
        #expect(fromSet.namespaces == [Self.media, Self.receiver])
    }

    @Test("single application ID initializer")
    func singleApplicationID() throws {
        let criteria = try DiscoveryCriteria(applicationID: "233637de")
        #expect(criteria.applicationIDs == [try ApplicationID("233637DE")])
        #expect(criteria.allSubtypes == ["_233637DE"])
    }

    @Test(
        "allSubtypes: application IDs in order, then namespace hashes in sorted order",
        arguments: [
            ([String](), [String](), [String]()),
            (["CC1AD845"], [], ["_CC1AD845"]),
            (["cc1ad845", "233637DE"], [], ["_CC1AD845", "_233637DE"]),
            ([], [media], [mediaLabel]),
            ([], [receiver, media], [mediaLabel, receiverLabel]),
            (["233637de"], [receiver, media], ["_233637DE", mediaLabel, receiverLabel]),
        ])
    func allSubtypes(ids: [String], namespaces: [String], expected: [String]) throws {
        let criteria = try DiscoveryCriteria(applicationIDs: ids, namespaces: namespaces)
        #expect(criteria.allSubtypes == expected)
    }

    @Test("browseTypes start with the base type, then one _sub type per label")
    func browseTypes() throws {
        let criteria = try DiscoveryCriteria(
            applicationIDs: ["cc1ad845", "233637DE"], namespaces: [Self.media])
        #expect(
            criteria.browseTypes == [
                "_googlecast._tcp",
                "_CC1AD845._sub._googlecast._tcp",
                "_233637DE._sub._googlecast._tcp",
                "_%9E5E7C8F47989526C9BCD95D24084F6F0B27C5ED._sub._googlecast._tcp",
            ])
        #expect(DiscoveryCriteria.all.browseTypes == ["_googlecast._tcp"])
    }

    @Test(
        "bonjourServices: base type plus _<APPID>._googlecast._tcp, no _sub, no namespaces",
        arguments: [
            ([String](), [String](), ["_googlecast._tcp"]),
            (["cc1ad845"], [], ["_googlecast._tcp", "_CC1AD845._googlecast._tcp"]),
            (
                ["233637DE", "CC1AD845"], [media],
                ["_googlecast._tcp", "_233637DE._googlecast._tcp", "_CC1AD845._googlecast._tcp"]
            ),
            ([], [media], ["_googlecast._tcp"]),
        ])
    func bonjourServices(ids: [String], namespaces: [String], expected: [String]) throws {
        let criteria = try DiscoveryCriteria(applicationIDs: ids, namespaces: namespaces)
        #expect(criteria.bonjourServices == expected)
    }

    @Test("all matches every device")
    func all() throws {
        let all = DiscoveryCriteria.all
        #expect(all.applicationIDs.isEmpty)
        #expect(all.namespaces.isEmpty)
        #expect(all.matchesEveryDevice)
        #expect(all.isEmpty)
        #expect(all.allSubtypes.isEmpty)
        #expect(all.bonjourServices == ["_googlecast._tcp"])
        #expect(all == (try DiscoveryCriteria(applicationIDs: [String]())))
    }

    @Test("defaultMediaReceiver holds CC1AD845 only")
    func defaultMediaReceiver() throws {
        let criteria = DiscoveryCriteria.defaultMediaReceiver
        #expect(criteria.applicationIDs.map(\.rawValue) == ["CC1AD845"])
        #expect(criteria.namespaces.isEmpty)
        #expect(criteria.matchesEveryDevice == false)
        #expect(criteria.isEmpty == false)
        #expect(criteria.allSubtypes == ["_CC1AD845"])
        #expect(criteria.bonjourServices == ["_googlecast._tcp", "_CC1AD845._googlecast._tcp"])
        #expect(criteria == (try DiscoveryCriteria(applicationID: "cc1ad845")))
    }

    @Test("namespaces alone do not match every device")
    func namespacesOnlyIsNotEmpty() throws {
        let criteria = try DiscoveryCriteria(namespaces: [Self.media])
        #expect(criteria.matchesEveryDevice == false)
        #expect(criteria.isEmpty == false)
    }

    @Test("validated application IDs initializer de-duplicates and cannot fail")
    func validatedInitializer() throws {
        let youTube = try ApplicationID("233637DE")
        let criteria = DiscoveryCriteria(validatedApplicationIDs: [
            youTube, .defaultMediaReceiver, youTube,
        ])
        #expect(criteria.applicationIDs == [youTube, .defaultMediaReceiver])
        #expect(criteria.namespaces.isEmpty)
    }

    @Test("ID order matters for equality, namespace order does not")
    func equality() throws {
        let ab = try DiscoveryCriteria(applicationIDs: ["AA", "BB"], namespaces: [Self.media, Self.receiver])
        let abCase = try DiscoveryCriteria(applicationIDs: ["aa", "bb"], namespaces: [Self.receiver, Self.media])
        let ba = try DiscoveryCriteria(applicationIDs: ["BB", "AA"], namespaces: [Self.media, Self.receiver])
        #expect(ab == abCase)
        #expect(ab.hashValue == abCase.hashValue)
        #expect(ab != ba)
    }

    @Test("subtype label of a namespace")
    func namespaceSubtypeLabel() {
        #expect(DiscoveryCriteria.subtypeLabel(forNamespace: Self.media) == Self.mediaLabel)
        #expect(DiscoveryCriteria.subtypeLabel(forNamespace: Self.receiver) == Self.receiverLabel)
    }

    @Test("an invalid application ID makes the initializers throw")
    func invalidApplicationIDThrows() {
        #expect(throws: DiscoveryCriteriaError.invalidApplicationIDCharacters("CC1AD84G")) {
            try DiscoveryCriteria(applicationIDs: ["CC1AD845", "CC1AD84G"])
        }
        #expect(throws: DiscoveryCriteriaError.emptyApplicationID) {
            try DiscoveryCriteria(applicationID: "")
        }
        #expect(throws: DiscoveryCriteriaError.invalidApplicationIDCharacters("١٢")) {
            try DiscoveryCriteria(applicationIDs: ["١٢"], namespaces: [Self.media])
        }
    }

    @Test(
        "valid namespaces",
        arguments: [
            "urn:x-cast:com.google.cast.media", "urn:x-cast:x", "urn:x-cast:com.exámple",
            "urn:x-cast:" + String(repeating: "n", count: 117),
        ])
    func validNamespace(namespace: String) throws {
        try DiscoveryCriteria.validate(namespace: namespace)
        #expect(try DiscoveryCriteria(namespaces: [namespace]).namespaces == [namespace])
    }

    @Test(
        "invalid namespaces",
        arguments: [
            ("", DiscoveryCriteriaError.emptyNamespace),
            ("urn:x-cast:", .namespaceMissingSuffix("urn:x-cast:")),
            ("com.google.cast.media", .namespaceMissingCastPrefix("com.google.cast.media")),
            ("URN:X-CAST:com.example", .namespaceMissingCastPrefix("URN:X-CAST:com.example")),
            (" urn:x-cast:com.example", .namespaceMissingCastPrefix(" urn:x-cast:com.example")),
            ("urn:x-cast", .namespaceMissingCastPrefix("urn:x-cast")),
            (
                "urn:x-cast:" + String(repeating: "n", count: 118),
                .namespaceTooLong("urn:x-cast:" + String(repeating: "n", count: 118))
            ),
        ])
    func invalidNamespace(namespace: String, expected: DiscoveryCriteriaError) {
        #expect(throws: expected) { try DiscoveryCriteria.validate(namespace: namespace) }
        #expect(throws: expected) { try DiscoveryCriteria(namespaces: [Self.media, namespace]) }
        #expect(throws: expected) {
            try DiscoveryCriteria(applicationIDs: ["CC1AD845"], namespaces: [namespace])
        }
    }

    @Test("Codable round trip keeps IDs in order and namespaces sorted")
    func codableRoundTrip() throws {
        let criteria = try DiscoveryCriteria(
            applicationIDs: ["cc1ad845", "233637de"], namespaces: [Self.receiver, Self.media])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(criteria)
        #expect(
            String(decoding: data, as: UTF8.self)
                == #"{"applicationIDs":["CC1AD845","233637DE"],"namespaces":["#
                + #""urn:x-cast:com.google.cast.media","urn:x-cast:com.google.cast.receiver"]}"#)
        let decoded = try JSONDecoder().decode(DiscoveryCriteria.self, from: data)
        #expect(decoded == criteria)
        #expect(decoded.allSubtypes == ["_CC1AD845", "_233637DE", Self.mediaLabel, Self.receiverLabel])
    }

    @Test("decoding normalises input and treats missing keys as empty")
    func decodeNormalises() throws {
        let json = #"{"applicationIDs":["233637de","233637DE","cc1ad845"]}"#
        let decoded = try JSONDecoder().decode(DiscoveryCriteria.self, from: Data(json.utf8))
        #expect(decoded.applicationIDs.map(\.rawValue) == ["233637DE", "CC1AD845"])
        #expect(decoded.namespaces.isEmpty)
        #expect(try JSONDecoder().decode(DiscoveryCriteria.self, from: Data("{}".utf8)) == .all)
    }

    @Test(
        "decoding invalid criteria fails with the validation error",
        arguments: [
            (#"{"applicationIDs":["CC1AD84G"]}"#, DiscoveryCriteriaError.invalidApplicationIDCharacters("CC1AD84G")),
            (#"{"namespaces":["com.example"]}"#, .namespaceMissingCastPrefix("com.example")),
            (#"{"applicationIDs":[""],"namespaces":[]}"#, .emptyApplicationID),
        ])
    func decodeInvalid(json: String, expected: DiscoveryCriteriaError) {
        do {
            _ = try JSONDecoder().decode(DiscoveryCriteria.self, from: Data(json.utf8))
            Issue.record("decoding \(json) succeeded")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.underlyingError as? DiscoveryCriteriaError == expected)
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
