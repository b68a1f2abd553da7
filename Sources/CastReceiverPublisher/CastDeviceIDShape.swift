/// The shapes a Cast receiver's `id` takes: 32 hex digits (a device), a UUID (a group), 12 hex
/// digits (some emulators).
enum CastDeviceIDShape {
    /// Whether `id` has one of the shapes.
    static func accepts(_ id: String) -> Bool {
        let scalars = Array(id.unicodeScalars)
        let isHex = { (scalar: Unicode.Scalar) in scalar.properties.isASCIIHexDigit }
        if scalars.count == 32 || scalars.count == 12 { return scalars.allSatisfy(isHex) }
        guard scalars.count == 36 else { return false }
        for (index, scalar) in scalars.enumerated() {
            let isDash = [8, 13, 18, 23].contains(index)
            guard isDash ? scalar == "-" : isHex(scalar) else { return false }
        }
        return true
    }

    /// A random id: a UUID (upper case, as groups publish theirs) for a group, else 32 lower-case
    /// hex digits.
    static func random(group: Bool) -> String {
        let digits = (0..<32).map { _ in String(UInt8.random(in: 0..<16), radix: 16) }.joined()
        guard group else { return digits }
        let d = Array(digits.uppercased())
        return [d[0..<8], d[8..<12], d[12..<16], d[16..<20], d[20..<32]].map { String($0) }.joined(separator: "-")
    }
}
