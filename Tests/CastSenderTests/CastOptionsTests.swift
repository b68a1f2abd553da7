import CastDiscovery
import CastSender
import Testing

@Suite("CastOptions and SenderPlatform")
struct CastOptionsTests {
    @Test("defaults are the SDK's")
    func defaults() {
        let options = CastOptions()
        #expect(!options.disableDiscoveryAutostart)
        #expect(options.startDiscoveryAfterFirstTapOnCastButton)
        #expect(options.platform == .linux)
        #expect(options.criteria == .defaultMediaReceiver)
    }

    @Test(
        "local-network permission: iOS 14 and later only",
        arguments: [
            (SenderPlatform.linux, false), (.iOS(major: 12), false), (.iOS(major: 13, minor: 7), false),
            (.iOS(major: 14), true), (.iOS(major: 17, minor: 2), true),
        ])
    func permission(platform: SenderPlatform, expected: Bool) {
        #expect(platform.requiresLocalNetworkPermission == expected)
    }

    @Test("the first-tap rule applies only with the flag, autostart and a permission")
    func firstTapRule() {
        #expect(CastOptions(platform: .iOS(major: 14)).waitsForFirstTap)
        #expect(!CastOptions(platform: .iOS(major: 13)).waitsForFirstTap)
        #expect(!CastOptions(platform: .linux).waitsForFirstTap)
        #expect(!CastOptions(disableDiscoveryAutostart: true, platform: .iOS(major: 14)).waitsForFirstTap)
        #expect(
            !CastOptions(startDiscoveryAfterFirstTapOnCastButton: false, platform: .iOS(major: 14)).waitsForFirstTap)
        #expect(SenderPlatform.iOS(major: 14, minor: 2).description == "iOS 14.2")
    }
}
