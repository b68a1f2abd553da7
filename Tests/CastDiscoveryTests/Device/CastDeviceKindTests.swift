import CastDiscovery
import Testing

@Suite("CastDeviceKind")
struct CastDeviceKindTests {
    @Test(
        "classification follows capabilities, model and port",
        arguments: [
            (UInt64(200709), "Chromecast", UInt16(8009), CastDeviceKind.video),
            (UInt64(198660), "Google Nest Mini", UInt16(8009), .audio),
            (UInt64(198692), "Google Cast Group", UInt16(32187), .group),
            (UInt64(198756), "Google Cast Group", UInt16(42315), .dynamicGroup),
            (UInt64(4), "Google Cast Group", UInt16(8009), .group),  // by model alone
            (UInt64(4), "Some Speaker", UInt16(32000), .group),  // audio on a group port
            (UInt64(5), "Chromecast", UInt16(8010), .video),  // video out is never a group by port
            (UInt64(0), "Mystery", UInt16(8009), .generic),
            (UInt64(0), "Mystery", UInt16(0), .generic),
        ])
    func classify(raw: UInt64, model: String, port: UInt16, kind: CastDeviceKind) {
        #expect(CastDeviceKind(capabilities: CastCapabilities(rawValue: raw), modelName: model, port: port) == kind)
    }

    @Test("SDK device types")
    func sdkTypes() {
        #expect(CastDeviceKind.generic.sdkDeviceType == 0)
        #expect(CastDeviceKind.video.sdkDeviceType == 1)
        #expect(CastDeviceKind.audio.sdkDeviceType == 2)
        #expect(CastDeviceKind.group.sdkDeviceType == 3)
        #expect(CastDeviceKind.dynamicGroup.sdkDeviceType == 3)
        #expect(CastDeviceKind.dynamicGroup.isGroup && CastDeviceKind.group.isGroup && !CastDeviceKind.audio.isGroup)
    }
}
