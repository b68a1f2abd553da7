import CastDiscovery
import CastSender
import Foundation
import Testing

@Suite("InfoPlistCheck over Fixtures/plists")
struct InfoPlistCheckTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var applicationIDs: [String] = ["CC1AD845"]
        var project: SenderProject? = Case.modern
        var codes: [FindingCode]
        var testDescription: String { "\(file) for \(applicationIDs)" }

        static let modern = SenderProject(
            sdkVersion: SDKVersion(4, 8, 3), deploymentTarget: SDKVersion(14))
        static let iOS13 = SenderProject(
            sdkVersion: SDKVersion(4, 7, 1), deploymentTarget: SDKVersion(13))
    }

    static let cases: [Case] = [
        Case(file: "good.plist", codes: []),
        Case(file: "good.plist", project: nil, codes: [.bluetoothNeedUnknown]),
        Case(
            file: "good.plist", applicationIDs: ["CC1AD845", "233637de"],
            codes: [.missingApplicationService]),
        Case(file: "good.plist", applicationIDs: [], codes: []),
        Case(file: "good.plist", project: Case.iOS13, codes: [.missingBluetoothUsageDescription]),
        Case(file: "good-bluetooth.plist", project: Case.iOS13, codes: []),
        Case(file: "good-bluetooth.plist", codes: [.bluetoothUsageDescriptionNotNeeded]),
        Case(file: "binary-youtube.plist", applicationIDs: ["233637DE"], codes: []),
        Case(file: "binary-youtube.plist", codes: [.missingApplicationService]),
        Case(
            file: "missing-keys.plist",
            codes: [.missingBonjourServices, .missingLocalNetworkUsageDescription]),
        Case(
            file: "sub-and-lowercase.plist", applicationIDs: ["CC1AD845", "4F8B3483"],
            codes: [
                .serviceWithSubtypeLabel, .lowercaseApplicationID, .missingGoogleCastService,
                .emptyLocalNetworkUsageDescription,
            ]),
        Case(
            file: "sub-and-lowercase.plist", applicationIDs: ["CC1AD845", "ABCDEF12"],
            codes: [
                .serviceWithSubtypeLabel, .lowercaseApplicationID, .missingGoogleCastService,
                .missingApplicationService, .emptyLocalNetworkUsageDescription,
            ]),
        Case(
            file: "wrong-types.plist",
            codes: [.bonjourServicesNotArray, .localNetworkUsageDescriptionNotString]),
        Case(
            file: "hostile-entries.plist",
            codes: [
                .bonjourServiceNotString, .bonjourServiceNotString,
                .missingApplicationService, .malformedBonjourService,
                .malformedBonjourService, .malformedBonjourService,
            ]),
    ]

    @Test("findings for each fixture", arguments: cases)
    func fixture(_ testCase: Case) throws {
        let check = InfoPlistCheck(
            criteria: try DiscoveryCriteria(applicationIDs: testCase.applicationIDs),
            project: testCase.project)
        let report = try check.check(fileAt: PlistFixtures.path(testCase.file))
        #expect(report.codes == testCase.codes)
        for finding in report.findings {
            #expect(finding.severity == finding.code.severity)
            #expect(finding.message.hasSuffix(".") && finding.fix.hasSuffix("."))
        }
    }

    @Test("missing entries name the application ID and the exact entry to add")
    func missingEntryMessage() throws {
        let check = InfoPlistCheck(criteria: try DiscoveryCriteria(applicationIDs: ["233637de"]))
        let report = try check.check(fileAt: PlistFixtures.path("good.plist"))
        let finding = try #require(report.findings.first { $0.code == .missingApplicationService })
        #expect(finding.message.contains("\"_233637DE._googlecast._tcp\""))
        #expect(
            finding.fix == #"Add "_233637DE._googlecast._tcp" to NSBonjourServices (no "_sub"; the ID in upper case)."#)
    }

    @Test("_sub and lower-case entries are corrected in the fix and the snippet")
    func corrections() throws {
        let check = InfoPlistCheck(
            criteria: try DiscoveryCriteria(applicationIDs: ["CC1AD845", "4F8B3483"]),
            project: Case.modern)
        let report = try check.check(fileAt: PlistFixtures.path("sub-and-lowercase.plist"))
        let fixes = report.findings.map(\.fix)
        #expect(fixes.contains(#"Write it as "_CC1AD845._googlecast._tcp"."#))
        #expect(fixes.contains(#"Write it as "_4F8B3483._googlecast._tcp"."#))
        #expect(
            report.snippet.bonjourServices == [
                "_googlecast._tcp", "_CC1AD845._googlecast._tcp", "_4F8B3483._googlecast._tcp",
            ])
        #expect(
            report.snippet.localNetworkUsageDescription
                == InfoPlistSnippet.sampleLocalNetworkUsageDescription)
    }

    @Test("values from the file are quoted with control and invisible characters escaped")
    func hostileValuesAreQuotedSafely() throws {
        let report = try InfoPlistCheck().check(fileAt: PlistFixtures.path("hostile-entries.plist"))
        let text = report.findings.map { "\($0.message) \($0.fix)" }.joined(separator: "\n")
        #expect(text.contains(#""_CC1AD845._googlecast._tcp\u{1B}[31m""#))
        #expect(text.contains(#""_CC1AD845._googlecast._tcp\u{202E}""#))
        #expect(text.contains(#""_googlecast._tcp\nrm -rf /""#))
        #expect(text.contains("item 1 is a number or boolean"))
        #expect(text.contains("item 2 is a dictionary"))
        for scalar in text.unicodeScalars where scalar != "\n" {
            #expect(scalar.properties.generalCategory != .control, "raw control \(scalar.value)")
            #expect(scalar.properties.generalCategory != .format, "raw format \(scalar.value)")
        }
        // The snippet keeps only the safe entries and replaces the hostile description.
        #expect(report.snippet.bonjourServices == ["_googlecast._tcp", "_CC1AD845._googlecast._tcp"])
        #expect(
            report.snippet.localNetworkUsageDescription
                == InfoPlistSnippet.sampleLocalNetworkUsageDescription)
        #expect(!report.snippet.xml.unicodeScalars.contains("\u{1B}"))
    }

    @Test("a binary plist written by PropertyListSerialization is read like its XML form")
    func binaryRoundTrip() throws {
        let xml = try Data(contentsOf: URL(fileURLWithPath: PlistFixtures.path("sub-and-lowercase.plist")))
        let value = try PropertyListSerialization.propertyList(from: xml, options: [], format: nil)
        let binary = try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
        #expect(binary.starts(with: Array("bplist".utf8)))
        let directory = try PlistFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Info.plist")
        try binary.write(to: file)
        let check = InfoPlistCheck(criteria: try DiscoveryCriteria(applicationIDs: ["CC1AD845", "4F8B3483"]))
        #expect(try check.check(fileAt: file.path) == check.check(data: xml))
    }

    @Test(
        "the corrected snippet, pasted into the plist, leaves no findings",
        arguments: [
            "missing-keys.plist", "sub-and-lowercase.plist", "wrong-types.plist",
            "hostile-entries.plist", "good.plist",
        ])
    func snippetFixesEverything(file: String) throws {
        let project = Case.iOS13
        let check = InfoPlistCheck(
            criteria: try DiscoveryCriteria(applicationIDs: ["CC1AD845", "4F8B3483"]),
            project: project)
        let report = try check.check(fileAt: PlistFixtures.path(file))
        #expect(!report.findings.isEmpty)
        let fixed = Data(
            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
                + report.snippet.xml + "</dict>\n</plist>\n").utf8)
        #expect(try check.check(data: fixed).findings == [])
    }

    @Test("reports encode as JSON with codes and severities as strings")
    func json() throws {
        let report = try InfoPlistCheck().check(fileAt: PlistFixtures.path("missing-keys.plist"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(report)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.first?["code"] as? String == "missing-bonjour-services")
        #expect(findings.first?["severity"] as? String == "error")
        #expect(object["snippetXML"] as? String == report.snippet.xml)
        #expect(try JSONDecoder().decode(InfoPlistReport.self, from: data) == report)
    }
}
