import CastDiscovery
import Testing

@Suite("CastCapabilities")
struct CastCapabilitiesTests {
    @Test("every bit of the reference table has its value")
    func bits() {
        let table: [(CastCapabilities, UInt64)] = [
            (.videoOut, 1), (.videoIn, 2), (.audioOut, 4), (.audioIn, 8), (.devMode, 16),
            (.multizoneGroup, 32), (.dynamicGroup, 64), (.multichannelGroup, 128),
            (.multichannelMember, 256), (.masterOrFixedVolume, 2048),
            (.attenuationOrFixedVolume, 4096), (.dynamicGroupingSupported, 65536),
        ]
        for (capability, value) in table { #expect(capability.rawValue == value) }
        #expect(CastCapabilities.named.count == table.count)
    }

    @Test(
        "real values decode to the documented bits and keep the unknown ones",
        arguments: [
            (
                UInt64(200709), ["videoOut", "audioOut", "attenuationOrFixedVolume", "dynamicGroupingSupported"],
                UInt64(1 << 17)
            ),
            (UInt64(198660), ["audioOut", "masterOrFixedVolume", "dynamicGroupingSupported"], UInt64(1 << 17)),
            (
                UInt64(198692), ["audioOut", "multizoneGroup", "masterOrFixedVolume", "dynamicGroupingSupported"],
                UInt64(1 << 17)
            ),
            (
                UInt64(198756),
                ["audioOut", "multizoneGroup", "dynamicGroup", "masterOrFixedVolume", "dynamicGroupingSupported"],
                UInt64(1 << 17)
            ),
            (UInt64(5), ["videoOut", "audioOut"], UInt64(0)),
        ])
    func realValues(raw: UInt64, names: [String], unknown: UInt64) {
        let capabilities = CastCapabilities(rawValue: raw)
        #expect(capabilities.names == names)
        #expect(capabilities.unknownBits.rawValue == unknown)
        #expect(capabilities.rawValue == raw, "no bit may be dropped")
    }

    @Test("SHIELD TV keeps bits 17 and 18; bit 9 is kept too")
    func unknownBitsKept() {
        let shield = CastCapabilities(rawValue: 462853)
        #expect(shield.unknownBits.rawValue == (1 << 17) | (1 << 18))
        #expect(shield.description == "videoOut,audioOut,attenuationOrFixedVolume,dynamicGroupingSupported,bit17,bit18")
        let withBit9 = CastCapabilities(rawValue: 4 | (1 << 9))
        #expect(withBit9.unknownBits.rawValue == 1 << 9)
        #expect(withBit9.description == "audioOut,bit9")
        #expect(CastCapabilities().description == "none")
        #expect(CastCapabilities().allNames.isEmpty)
        #expect(
            shield.allNames == [
                "videoOut", "audioOut", "attenuationOrFixedVolume", "dynamicGroupingSupported", "bit17", "bit18",
            ])
    }

    @Test("has() is true only when every bit is set")
    func has() {
        let speaker = CastCapabilities(rawValue: 198660)
        #expect(speaker.has(.audioOut))
        #expect(!speaker.has([.audioOut, .videoOut]))
        #expect(speaker.has([]))
    }
}
