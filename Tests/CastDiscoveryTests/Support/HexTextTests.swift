@testable import CastDiscovery
import Foundation
import Testing

@Suite("Hex text")
struct HexTextTests {
    @Test("two digits a byte, lower or upper case, as printf writes them")
    func digits() {
        #expect(HexText.encode([]) == "")
        #expect(HexText.encode([0x00, 0x0A, 0x7F, 0xFF]) == "000a7fff")
        #expect(HexText.encode([0x00, 0x0A, 0x7F, 0xFF], uppercase: true) == "000A7FFF")
        let all = (0...255).map { UInt8($0) }
        #expect(HexText.encode(all) == all.map { String(format: "%02x", $0) }.joined())
        #expect(HexText.encode(all, uppercase: true) == all.map { String(format: "%02X", $0) }.joined())
    }
}
