import CastDiscovery
import Testing

@Suite("CastDeviceID")
struct CastDeviceIDTests {
    @Test(
        "a UUID compares equal in the 32-hex and 8-4-4-4-12 forms, in any case",
        arguments: [
            "406c2bcdd5995755059b5bb045326056",
            "406C2BCDD5995755059B5BB045326056",
            "406c2bcd-d599-5755-059b-5bb045326056",
            "406C2BCD-D599-5755-059B-5BB045326056",
            "406c2BCD-d599-5755-059B-5bb045326056",
        ])
    func uuidForms(text: String) {
        let id = CastDeviceID(text)
        #expect(id.isUUID)
        #expect(id.normalized == "406c2bcdd5995755059b5bb045326056")
        #expect(id == CastDeviceID("406c2bcdd5995755059b5bb045326056"))
        #expect(id.hashValue == CastDeviceID("406c2bcdd5995755059b5bb045326056").hashValue)
        #expect(id.uuidString == "406c2bcd-d599-5755-059b-5bb045326056")
        #expect(id.rawValue == text)
    }

    @Test(
        "anything else is opaque and compared exactly",
        arguments: [
            "0a1b2c3d4e5f",  // 12-hex emulator id
            "406c2bcdd5995755059b5bb04532605",  // 31 digits
            "406c2bcd-d599-5755-059b-5bb04532605g",  // a non-hex digit
            "406c2bcdd599-5755-059b-5bb045326056-",  // dashes in the wrong places
            "Living Room",
            "",
        ])
    func opaque(text: String) {
        let id = CastDeviceID(text)
        #expect(!id.isUUID)
        #expect(id.normalized == text)
        #expect(id.uuidString == nil)
    }

    @Test("opaque ids are case-sensitive")
    func opaqueCase() {
        #expect(CastDeviceID("0a1b2c3d4e5f") != CastDeviceID("0A1B2C3D4E5F"))
    }
}
