import CastDiscovery
import CastSender
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Info.plists, XML, binary or OpenStep (`InfoPlistCheck.check(data:)`: the guards, then
/// Foundation's parser, then the findings and the corrected snippet).
///
/// Checked with no project and with one that needs the Bluetooth text (iOS 13, SDK 4.7.0):
/// - Never traps; throws only `InfoPlistError`, whose text holds no raw control character.
/// - Every finding's message and fix hold no raw control character (documented: values from
///   the file are quoted and escaped); the snippet's XML only the line ends and tabs it writes.
/// - The report's JSON reads back as the same report.
/// - The snippet is a fixed point: an Info.plist made of it checks with no finding about the
///   Bonjour services or the local network text (only the Bluetooth notes remain), and gives
///   the same snippet.
public enum InfoPlistProperties {
    static let property = Property(target: "info-plist")

    static let checks = [
        InfoPlistCheck(),
        InfoPlistCheck(project: SenderProject(sdkVersion: SDKVersion(4, 7, 0), deploymentTarget: SDKVersion(13, 0))),
    ]

    public static func check(_ bytes: [UInt8]) throws(PropertyFailure) {
        let data = Data(bytes)
        for check in checks {
            let report: InfoPlistReport
            do {
                report = try check.check(data: data)
            } catch {
                try property.requireNoRawControl(error.description, in: "the error")
                continue
            }
            try checkReport(report)
            try checkFixedPoint(report, check: check)
        }
    }

    private static func checkReport(_ report: InfoPlistReport) throws(PropertyFailure) {
        for finding in report.findings {
            try property.requireNoRawControl(finding.message, in: "the message of \(finding.code)")
            try property.requireNoRawControl(finding.fix, in: "the fix of \(finding.code)")
        }
        try property.requireNoRawControl(report.snippet.xml, allowing: ["\n", "\t"], in: "the snippet")
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = try encoder.encode(report)
            let decoded = try JSONDecoder().decode(InfoPlistReport.self, from: data)
            try property.require(decoded == report, "the report's JSON reads back as another report")
        } catch let failure as PropertyFailure {
            throw failure
        } catch {
            throw property.fail("the report's JSON does not read back: \(error)")
        }
    }

    /// The bonjour and local network findings the snippet is there to fix.
    private static let remaining: Set<FindingCode> = [.bluetoothNeedUnknown, .bluetoothUsageDescriptionNotNeeded]

    private static func checkFixedPoint(_ report: InfoPlistReport, check: InfoPlistCheck) throws(PropertyFailure) {
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \(report.snippet.xml)</dict>
            </plist>

            """
        let fixed: InfoPlistReport
        do {
            fixed = try check.check(data: Data(document.utf8))
        } catch {
            throw property.fail("the snippet as an Info.plist cannot be checked: \(error)\n\(document)")
        }
        let left = fixed.findings.filter { !remaining.contains($0.code) }
        try property.require(left.isEmpty, "the snippet as an Info.plist still has findings \(left.map(\.description))")
        try property.require(
            fixed.snippet == report.snippet,
            "the snippet as an Info.plist gives another snippet: \(fixed.snippet) vs \(report.snippet)")
    }
}
