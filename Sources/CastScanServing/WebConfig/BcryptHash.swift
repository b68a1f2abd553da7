/// A bcrypt hash as a web configuration holds one (`$2y$10$...`), checked the way Go's
/// `bcrypt.Cost` checks it (exporter-toolkit's test of `basic_auth_users`): its form and cost,
/// not its salt and digest.
enum BcryptHash {
    /// What is wrong with `hash`; nil when Go's bcrypt would take it.
    static func problem(_ hash: String) -> String? {
        let bytes = Array(hash.utf8)
        guard bytes.count >= 59 else { return "not a bcrypt hash: too short (59 characters at least)" }
        guard bytes[0] == UInt8(ascii: "$") else {
            return "not a bcrypt hash: it must start with '$', not '\(printable(bytes[0]))'"
        }
        guard bytes[1] <= UInt8(ascii: "2") else {
            return "bcrypt version '\(printable(bytes[1]))' is newer than 2"
        }
        // `$2$` or `$2x$`: the minor version is any one byte.
        let costStart = bytes[2] == UInt8(ascii: "$") ? 3 : 4
        let costText = String(decoding: bytes[costStart..<costStart + 2], as: UTF8.self)
        guard let cost = Int(costText) else {
            return
                "not a bcrypt hash: its cost '\(String(costText.unicodeScalars.map { $0.value < 0x20 ? "?" : Character($0) }))' is not a number"
        }
        guard (4...31).contains(cost) else { return "bcrypt cost \(cost) is outside 4 to 31" }
        return nil
    }

    private static func printable(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
    }
}
