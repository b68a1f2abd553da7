import CastDiscovery
import Testing

@Suite("BrowseRequest")
struct BrowseRequestTests {
    @Test("the criteria's browse types parse, namespaces' subtypes included, and keep their names")
    func criteriaTypes() throws {
        let criteria = try DiscoveryCriteria(
            applicationIDs: ["cc1ad845", "233637DE"], namespaces: ["urn:x-cast:com.google.cast.media"])
        let request = try BrowseRequest(parsing: criteria.browseTypes)
        #expect(request.browseTypes == criteria.browseTypes)
        #expect(request.serviceTypes.first == .googleCast)
        #expect(request.serviceTypes.dropFirst().map(\.subtype) == criteria.allSubtypes)
        #expect(Set(request.serviceTypesByName.values.map(\.base)) == [.googleCast])
        #expect(
            request.serviceTypesByName[criteria.browseTypes[3]]?.subtype == "_%9E5E7C8F47989526C9BCD95D24084F6F0B27C5ED"
        )
    }

    @Test("parsing takes browse types as text and gives the same request")
    func parsing() throws {
        let text = ["_googlecast._tcp", "_CC1AD845._sub._googlecast._tcp"]
        let parsed = try BrowseRequest(parsing: text, passive: true)
        #expect(parsed.browseTypes == text)
        #expect(parsed.passive)
        #expect(
            parsed
                == (try BrowseRequest(
                    serviceTypes: [.googleCast, ServiceType.googleCast.subtype("_CC1AD845")], passive: true)))
    }

    @Test(
        "a type that does not parse is refused, with the one message every backend used to write its own way",
        arguments: [
            ["googlecast"], ["_googlecast._tcp", "_x._sub"], ["_googlecast._bogus"],
        ])
    func errors(types: [String]) {
        #expect(throws: DiscoveryError.self) { try BrowseRequest(parsing: types) }
        do {
            _ = try BrowseRequest(parsing: types)
        } catch {
            #expect(error.kind == .invalidBrowseType)
            #expect(error.message.hasPrefix("cannot browse "), "\(error)")
        }
    }

    @Test("an empty request is refused")
    func empty() {
        do {
            _ = try BrowseRequest(serviceTypes: [])
            Issue.record("an empty request was accepted")
        } catch {
            #expect(error.kind == .invalidBrowseType)
            #expect(error.message == "nothing to browse")
        }
    }
}
