import CastDiscovery
import CastSender
import Foundation
import Testing

/// Every type a property list value may have, as the checks name it when it is not what the key
/// needs: in XML (booleans, reals, dates, data) and in a binary list (a UID, which no
/// Info.plist holds).
@Suite("Info.plist values of every type")
struct PropertyListValueTests {
    /// An XML Info.plist of `body` (keys and values) inside its top dictionary.
    static func xml(_ body: String) -> Data {
        Data(
            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n"
                + body + "\n</dict>\n</plist>\n").utf8)
    }

    static let values: [(xml: String, typeName: String)] = [
        ("<true/>", "a number or boolean"),
        ("<false/>", "a number or boolean"),
        ("<integer>-3</integer>", "a number or boolean"),
        ("<real>1.5</real>", "a number or boolean"),
        ("<date>2024-05-01T12:00:00Z</date>", "a date"),
        ("<data>AAEC</data>", "data"),
        ("<array><string>_googlecast._tcp</string></array>", "an array"),
        ("<dict><key>a</key><string>b</string></dict>", "a dictionary"),
    ]

    @Test("a Bonjour entry that is not a string is named by its type", arguments: values)
    func bonjourEntry(value: String, typeName: String) throws {
        let report = try InfoPlistCheck().check(
            data: Self.xml(
                "<key>NSBonjourServices</key><array>\(value)<string>_googlecast._tcp</string></array>"))
        let finding = try #require(report.findings.first { $0.code == .bonjourServiceNotString })
        #expect(finding.message.contains("item 0 is \(typeName), not a string"), "\(finding.message)")
        #expect(
            report.findings.filter { $0.code == .bonjourServiceNotString }.count == 1,
            "the string item 1 is read as one")
    }

    @Test("a usage description that is not a string is named by its type", arguments: values)
    func usageDescription(value: String, typeName: String) throws {
        let report = try InfoPlistCheck().check(
            data: Self.xml(
                "<key>NSBonjourServices</key><array><string>_googlecast._tcp</string></array>"
                    + "<key>NSLocalNetworkUsageDescription</key>\(value)"))
        let finding = try #require(report.findings.first { $0.code == .localNetworkUsageDescriptionNotString })
        #expect(finding.message.contains("is \(typeName), not a string"), "\(finding.message)")
    }

    @Test(
        "a top level that is not a dictionary is refused, naming its type",
        arguments: values.filter { !$0.xml.hasPrefix("<dict>") })
    func topLevel(value: String, typeName: String) {
        let data = Data(("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\(value)</plist>\n").utf8)
        #expect(throws: InfoPlistError.notADictionary(actualType: typeName)) {
            _ = try InfoPlistCheck().check(data: data)
        }
    }

    @Test("text that reads as a number stays a string")
    func numericString() throws {
        let report = try InfoPlistCheck().check(
            data: Self.xml(
                "<key>NSBonjourServices</key><array><string>1</string></array>"
                    + "<key>NSLocalNetworkUsageDescription</key><string>1</string>"))
        #expect(!report.codes.contains(.bonjourServiceNotString))
        #expect(!report.codes.contains(.localNetworkUsageDescriptionNotString))
        let finding = try #require(report.findings.first { $0.code == .malformedBonjourService })
        #expect(finding.message.contains("\"1\""), "\(finding.message)")
    }

    /// A binary property list: the top dictionary {NSBonjourServices: [UID 7, "_googlecast._tcp"]}.
    /// One byte a reference and an offset.
    static var binaryWithUID: Data {
        func ascii(_ text: String) -> [UInt8] {
            precondition(text.utf8.count < 0x80)
            let bytes = Array(text.utf8)
            return bytes.count < 0x0F ? [0x50 | UInt8(bytes.count)] + bytes : [0x5F, 0x10, UInt8(bytes.count)] + bytes
        }
        let objects: [[UInt8]] = [
            [0xD1, 1, 2],  // 0: {1: 2}
            ascii("NSBonjourServices"),  // 1
            [0xA2, 3, 4],  // 2: [3, 4]
            [0x80, 0x07],  // 3: UID 7
            ascii("_googlecast._tcp"),  // 4
        ]
        var body = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(body.count))
            body += object
        }
        let tableOffset = body.count
        body += offsets
        body += [0, 0, 0, 0, 0, 0, 1, 1]
        body += [0, 0, 0, 0, 0, 0, 0, UInt8(objects.count)] + [UInt8](repeating: 0, count: 8)
        body += [0, 0, 0, 0, 0, 0, 0, UInt8(tableOffset)]
        return Data(body)
    }

    @Test("a value of no Info.plist type (a binary list's UID) is kept as unexpected, and the rest still checked")
    func unsupportedValue() throws {
        let data = Self.binaryWithUID
        #expect(data.starts(with: Array("bplist00".utf8)))
        let report = try InfoPlistCheck().check(data: data)
        let finding = try #require(report.findings.first { $0.code == .bonjourServiceNotString })
        #expect(finding.message.contains("item 0 is a value of an unexpected type"), "\(finding.message)")
        // Item 1, the Google Cast type, was read: no finding says it is missing.
        #expect(!report.codes.contains(.missingGoogleCastService))
        #expect(report.snippet.bonjourServices.contains("_googlecast._tcp"))
    }
}
