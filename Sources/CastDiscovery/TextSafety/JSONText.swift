/// JSON text made safe to show: the output side of the package's one text rule.
package enum JSONText {
    /// `json` (valid UTF-8 JSON text, as an encoder writes it) with every scalar that
    /// ``TextSafety`` calls unsafe written as a `\uXXXX` escape (a surrogate pair above U+FFFF),
    /// so `cat` or `jq -r` never puts DEL, a C1 control, a bidi override or a line separator
    /// raw on a terminal. The JSON value is unchanged: outside strings JSON text is ASCII.
    package static func escapingUnsafeScalars(_ json: [UInt8]) -> [UInt8] {
        guard json.contains(where: { $0 >= 0x7F }) else { return json }
        let scalars = Array(String(decoding: json, as: UTF8.self).unicodeScalars)
        var out: [UInt8] = []
        out.reserveCapacity(json.count + 16)
        for index in scalars.indices {
            let scalar = scalars[index]
            if scalar.isASCII, scalar.value != 0x7F {
                out.append(UInt8(scalar.value))
            } else if TextSafety.isUnsafe(at: index, in: scalars) {
                appendEscape(scalar.value, to: &out)
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return out
    }

    private static func appendEscape(_ value: UInt32, to out: inout [UInt8]) {
        if value > 0xFFFF {
            let offset = value - 0x10000
            appendUnit(0xD800 + (offset >> 10), to: &out)
            appendUnit(0xDC00 + (offset & 0x3FF), to: &out)
        } else {
            appendUnit(value, to: &out)
        }
    }

    private static func appendUnit(_ unit: UInt32, to out: inout [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u")])
        for shift in stride(from: 12, through: 0, by: -4) {
            out.append(digits[Int((unit >> UInt32(shift)) & 0xF)])
        }
    }
}
