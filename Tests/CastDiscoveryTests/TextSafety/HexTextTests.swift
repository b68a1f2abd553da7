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

    @Test("hex text reads back to its bytes, in either case; odd lengths and other characters are refused")
    func decoding() {
        let all = (0...255).map { UInt8($0) }
        #expect(HexText.bytes(HexText.encode(all)) == all)
        #expect(HexText.bytes(HexText.encode(all, uppercase: true)) == all)
        #expect(HexText.bytes("") == [])
        #expect(HexText.bytes("0aFf") == [0x0A, 0xFF])
        for bad in ["0", "abc", "0g", "zz", " 0a", "0a ", "0x0a", "ａａ"] { #expect(HexText.bytes(bad) == nil, "\(bad)") }
    }
}
