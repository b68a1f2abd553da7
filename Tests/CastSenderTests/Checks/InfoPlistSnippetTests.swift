import CastDiscovery
import CastSender
import Foundation
import Testing

@Suite("InfoPlistSnippet")
struct InfoPlistSnippetTests {
    @Test("the Default Media Receiver snippet, exactly")
    func defaultSnippet() {
        let snippet = InfoPlistSnippet(criteria: .defaultMediaReceiver)
        #expect(
            snippet.xml == """
                <key>NSBonjourServices</key>
                <array>
                \t<string>_googlecast._tcp</string>
                \t<string>_CC1AD845._googlecast._tcp</string>
                </array>
                <key>NSLocalNetworkUsageDescription</key>
                <string>${PRODUCT_NAME} uses the local network to discover Cast-enabled devices on your WiFi network.</string>

                """)
    }

    @Test(
        "text is XML-escaped; unsafe or blank text falls back to the samples",
        arguments: [
            ("Tom & Jerry <TV>", "Tom &amp; Jerry &lt;TV&gt;"),
            ("a]]>b", "a]]&gt;b"),
            ("   ", InfoPlistSnippet.sampleLocalNetworkUsageDescription),
            ("bell\u{07}", InfoPlistSnippet.sampleLocalNetworkUsageDescription),
            ("rtl\u{202E}txt", InfoPlistSnippet.sampleLocalNetworkUsageDescription),
            ("Mañana – 東京", "Mañana – 東京"),
        ])
    func escaping(description: String, expected: String) {
        let snippet = InfoPlistSnippet(
            criteria: .all, localNetworkUsageDescription: description,
            includeBluetoothUsageDescription: true, bluetoothUsageDescription: description)
        #expect(snippet.xml.contains("<key>NSLocalNetworkUsageDescription</key>\n<string>\(expected)</string>"))
        let bluetoothExpected =
            expected == InfoPlistSnippet.sampleLocalNetworkUsageDescription
            ? InfoPlistSnippet.sampleBluetoothUsageDescription : expected
        #expect(
            snippet.xml.contains("<key>NSBluetoothAlwaysUsageDescription</key>\n<string>\(bluetoothExpected)</string>"))
    }

    @Test("required entries first, kept entries after, duplicates and unsafe entries dropped")
    func services() throws {
        let criteria = try DiscoveryCriteria(applicationIDs: ["233637de", "CC1AD845"])
        let snippet = InfoPlistSnippet(
            criteria: criteria,
            keepingServices: ["_http._tcp", "_googlecast._tcp", "_x\u{1B}._tcp", "_http._tcp", "<&>"])
        #expect(
            snippet.bonjourServices == [
                "_googlecast._tcp", "_233637DE._googlecast._tcp", "_CC1AD845._googlecast._tcp",
                "_http._tcp", "<&>",
            ])
        #expect(snippet.xml.contains("<string>&lt;&amp;&gt;</string>"))
        #expect(!snippet.xml.contains("NSBluetoothAlwaysUsageDescription"))
    }

    @Test("the snippet parses as a property list with the expected values")
    func parses() throws {
        let snippet = InfoPlistSnippet(
            criteria: .defaultMediaReceiver, localNetworkUsageDescription: "A & B",
            includeBluetoothUsageDescription: true)
        let data = Data(("<plist version=\"1.0\"><dict>\n" + snippet.xml + "</dict></plist>").utf8)
        let value = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        let plist = try #require(value as? [String: Any])
        #expect(plist["NSBonjourServices"] as? [String] == snippet.bonjourServices)
        #expect(plist["NSLocalNetworkUsageDescription"] as? String == "A & B")
        #expect(
            plist["NSBluetoothAlwaysUsageDescription"] as? String
                == InfoPlistSnippet.sampleBluetoothUsageDescription)
    }
}
