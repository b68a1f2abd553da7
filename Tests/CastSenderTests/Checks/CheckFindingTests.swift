import CastSender
import Foundation
import Testing

@Suite("CheckFinding, FindingCode and FindingSeverity")
struct CheckFindingTests {
    @Test(
        "every code has a stable string and one severity",
        arguments: [
            (FindingCode.missingBonjourServices, "missing-bonjour-services", FindingSeverity.error),
            (.bonjourServicesNotArray, "bonjour-services-not-array", .error),
            (.bonjourServiceNotString, "bonjour-service-not-string", .error),
            (.missingGoogleCastService, "missing-googlecast-service", .error),
            (.missingApplicationService, "missing-application-service", .error),
            (.serviceWithSubtypeLabel, "service-with-sub", .error),
            (.lowercaseApplicationID, "lowercase-application-id", .error),
            (.malformedBonjourService, "malformed-bonjour-service", .warning),
            (.missingLocalNetworkUsageDescription, "missing-local-network-usage-description", .error),
            (.emptyLocalNetworkUsageDescription, "empty-local-network-usage-description", .error),
            (.localNetworkUsageDescriptionNotString, "local-network-usage-description-not-string", .error),
            (.missingBluetoothUsageDescription, "missing-bluetooth-usage-description", .error),
            (.bluetoothUsageDescriptionNotNeeded, "bluetooth-usage-description-not-needed", .info),
            (.bluetoothNeedUnknown, "bluetooth-need-unknown", .info),
            (.sdkTooOldForXcode, "sdk-too-old-for-xcode", .error),
            (.castButtonHiddenWithoutDevices, "cast-button-hidden-without-devices", .warning),
            (.sdkBelowRecommended, "sdk-below-recommended", .info),
            (.sdkRequiresIOS14, "sdk-requires-ios-14", .error),
            (.firstTapDiscoveryBug, "first-tap-discovery-bug", .warning),
            (.wifiInformationEntitlement, "wifi-information-entitlement", .warning),
            (.bluetoothUsageDescriptionRequired, "bluetooth-usage-description-required", .info),
            (.noBluetoothVariantUnavailable, "no-bluetooth-variant-unavailable", .warning),
            (.builtWithIOS12SDK, "built-with-ios-12-sdk", .warning),
            (.castButtonMayNeedLocation, "cast-button-may-need-location", .warning),
        ])
    func codes(code: FindingCode, raw: String, severity: FindingSeverity) {
        #expect(code.rawValue == raw)
        #expect(code.severity == severity)
        #expect(CheckFinding(code, message: "m.", fix: "f.").severity == severity)
    }

    @Test("the table above covers every code")
    func allCodesCovered() {
        #expect(FindingCode.allCases.count == 24)
    }

    @Test("severities order info < warning < error")
    func severityOrder() {
        #expect(FindingSeverity.allCases.sorted() == [.info, .warning, .error])
        #expect(FindingSeverity.error > .warning)
    }

    @Test("JSON: encodes code and severity as strings; decoding takes the code's severity")
    func json() throws {
        let finding = CheckFinding(.missingGoogleCastService, message: "M.", fix: "F.")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(finding), as: UTF8.self)
        #expect(json == #"{"code":"missing-googlecast-service","fix":"F.","message":"M.","severity":"error"}"#)
        let tampered = Data(#"{"code":"missing-googlecast-service","fix":"F.","message":"M.","severity":"info"}"#.utf8)
        #expect(try JSONDecoder().decode(CheckFinding.self, from: tampered) == finding)
        #expect(finding.description == "error [missing-googlecast-service] M. Fix: F.")
    }
}
