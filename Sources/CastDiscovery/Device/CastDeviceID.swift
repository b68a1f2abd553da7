/// The receiver's unique id (TXT key `id`).
///
/// The id is an opaque string. When it is a UUID, written either as 32 hex digits or in the
/// 8-4-4-4-12 form and in any case, it is normalised to 32 lower-case hex digits, so that a
/// device and the same id written as a group would write it compare equal. Any other id (an
/// emulator's, say) is kept and compared exactly as received.
public struct CastDeviceID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The id exactly as the device published it.
    public let rawValue: String
    /// The form ids are compared by: 32 lower-case hex digits for a UUID, else ``rawValue``.
    public let normalized: String
    /// Whether the id is a UUID in one of the two accepted forms.
    public let isUUID: Bool

    /// Creates an id from the text a device published.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
        if let hex = Self.uuidHex(rawValue) {
            normalized = hex
            isUUID = true
        } else {
            normalized = rawValue
            isUUID = false
        }
    }

    /// The UUID in 8-4-4-4-12 lower-case form, when the id is one.
    public var uuidString: String? {
        guard isUUID else { return nil }
        let c = Array(normalized)
        return [c[0..<8], c[8..<12], c[12..<16], c[16..<20], c[20..<32]]
            .map { String($0) }.joined(separator: "-")
    }

    public var description: String { normalized }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.normalized == rhs.normalized }
    public func hash(into hasher: inout Hasher) { hasher.combine(normalized) }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.normalized < rhs.normalized }

    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The 32 lower-case hex digits of `text` when it is a UUID in either form, else nil.
    private static func uuidHex(_ text: String) -> String? {
        // What receivers publish: 32 lower-case hex digits, already normal (no copy).
        if text.utf8.count == 32,
            text.utf8.allSatisfy({
                ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                    || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
            })
        {
            return text
        }
        let bytes = Array(text.utf8)
        let digits: [UInt8]
        switch bytes.count {
        case 32:
            digits = bytes
        case 36:
            let dashes = [8, 13, 18, 23]
            guard dashes.allSatisfy({ bytes[$0] == UInt8(ascii: "-") }) else { return nil }
            digits = bytes.enumerated().filter { !dashes.contains($0.offset) }.map(\.element)
        default:
            return nil
        }
        var lower = [UInt8]()
        lower.reserveCapacity(32)
        for b in digits {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"): lower.append(b)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): lower.append(b + 32)
            default: return nil
            }
        }
        return String(decoding: lower, as: UTF8.self)
    }
}
