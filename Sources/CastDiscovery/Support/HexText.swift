/// Bytes as hexadecimal text, two digits a byte: the one hex formatter of the package.
package enum HexText {
    /// `bytes` as hexadecimal: `[0x0a, 0xff]` is `0aff`, or `0AFF` with `uppercase`.
    package static func encode(_ bytes: some Sequence<UInt8>, uppercase: Bool = false) -> String {
        let digits = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
