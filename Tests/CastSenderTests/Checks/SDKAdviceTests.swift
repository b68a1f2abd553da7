import CastSender
import Testing

@Suite("SDKAdvice")
struct SDKAdviceTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var sdk: String
        var xcode: String?
        var target: String
        var noBluetooth = false
        var codes: [FindingCode]
        var testDescription: String {
            "SDK \(sdk), Xcode \(xcode ?? "?"), iOS \(target)\(noBluetooth ? ", no-BT" : "")"
        }
    }

    static let cases: [Case] = [
        Case(sdk: "4.8.3", xcode: "15.4", target: "14.0", codes: []),
        Case(sdk: "4.8.3", xcode: nil, target: "15", codes: []),
        Case(
            sdk: "4.4.8", xcode: "12.0", target: "14.0",
            codes: [.sdkTooOldForXcode, .castButtonHiddenWithoutDevices, .sdkBelowRecommended]),
        Case(
            sdk: "4.4.8", xcode: "11.7", target: "14.0",
            codes: [.castButtonHiddenWithoutDevices, .sdkBelowRecommended]),
        Case(
            sdk: "4.4.8", xcode: nil, target: "14.0",
            codes: [.sdkTooOldForXcode, .castButtonHiddenWithoutDevices, .sdkBelowRecommended]),
        Case(
            sdk: "4.5.0", xcode: "12", target: "14",
            codes: [.castButtonHiddenWithoutDevices, .sdkBelowRecommended]),
        Case(sdk: "4.6.0", xcode: "12", target: "14", codes: [.sdkBelowRecommended]),
        Case(
            sdk: "4.8.0", xcode: "15", target: "14",
            codes: [.firstTapDiscoveryBug, .sdkBelowRecommended]),
        Case(
            sdk: "4.8.1", xcode: "15", target: "13.0",
            codes: [.sdkRequiresIOS14, .firstTapDiscoveryBug, .sdkBelowRecommended]),
        Case(sdk: "4.8.2", xcode: "15", target: "14", codes: [.sdkBelowRecommended]),
        Case(sdk: "4.8.3", xcode: "15", target: "12.4", codes: [.sdkRequiresIOS14, .wifiInformationEntitlement]),
        Case(
            sdk: "4.7.1", xcode: "15", target: "13.0",
            codes: [.sdkBelowRecommended, .bluetoothUsageDescriptionRequired]),
        Case(
            sdk: "4.7.1", xcode: "15", target: "13.0", noBluetooth: true,
            codes: [.sdkBelowRecommended]),
        Case(
            sdk: "4.7.1", xcode: "15", target: "12.0",
            codes: [
                .wifiInformationEntitlement, .sdkBelowRecommended,
                .bluetoothUsageDescriptionRequired,
            ]),
        Case(
            sdk: "4.4.2", xcode: "11.7", target: "13.0", noBluetooth: true,
            codes: [
                .castButtonHiddenWithoutDevices, .noBluetoothVariantUnavailable, .castButtonMayNeedLocation,
                .sdkBelowRecommended, .bluetoothUsageDescriptionRequired,
            ]),
        Case(
            sdk: "4.4.3", xcode: "11.7", target: "13.0", noBluetooth: true,
            codes: [.castButtonHiddenWithoutDevices, .castButtonMayNeedLocation, .sdkBelowRecommended]),
        // Google's "iOS permissions and discovery", iOS 13: built with the iOS 13 SDK (Xcode 11),
        // SDK 4.4.4 and later need no location permission for the Cast button.
        Case(
            sdk: "4.4.4", xcode: "11.7", target: "13.0", noBluetooth: true,
            codes: [.castButtonHiddenWithoutDevices, .sdkBelowRecommended]),
        // Built with the iOS 12 SDK (Xcode 10): slower discovery on iOS 13, whatever the Cast SDK.
        Case(
            sdk: "4.4.4", xcode: "10.3", target: "13.0", noBluetooth: true,
            codes: [.castButtonHiddenWithoutDevices, .builtWithIOS12SDK, .sdkBelowRecommended]),
        Case(
            sdk: "4.4.2", xcode: "10.3", target: "12.0",
            codes: [
                .castButtonHiddenWithoutDevices, .wifiInformationEntitlement, .builtWithIOS12SDK,
                .sdkBelowRecommended, .bluetoothUsageDescriptionRequired,
            ]),
    ]

    @Test("findings for SDK, Xcode and deployment target", arguments: cases)
    func findings(_ testCase: Case) throws {
        let project = SenderProject(
            sdkVersion: try SDKVersion(parsing: testCase.sdk),
            xcodeVersion: try testCase.xcode.map { try SDKVersion(parsing: $0) },
            deploymentTarget: try SDKVersion(parsing: testCase.target),
            usesNoBluetoothVariant: testCase.noBluetooth)
        let findings = SDKAdvice(project: project).findings
        #expect(findings.map(\.code) == testCase.codes)
        #expect(findings.map(\.severity) == findings.map(\.severity).sorted(by: >))
        for finding in findings {
            #expect(!finding.message.isEmpty && !finding.fix.isEmpty)
        }
    }

    @Test(
        "Bluetooth usage string: iOS < 14, SDK < 4.8.1, not the no-Bluetooth variant (>= 4.4.3)",
        arguments: [
            ("4.8.0", "13.0", false, true), ("4.8.1", "13.0", false, false),
            ("4.8.0", "14.0", false, false), ("4.8.0", "13.7", true, false),
            ("4.4.2", "13.0", true, true), ("4.4.3", "13.0", true, false),
            ("4.3.0", "12.0", false, true), ("4.8.3", "16.0", false, false),
        ])
    func bluetooth(sdk: String, target: String, noBluetooth: Bool, needed: Bool) throws {
        let project = SenderProject(
            sdkVersion: try SDKVersion(parsing: sdk),
            deploymentTarget: try SDKVersion(parsing: target),
            usesNoBluetoothVariant: noBluetooth)
        #expect(SDKAdvice(project: project).needsBluetoothUsageDescription == needed)
    }
}
