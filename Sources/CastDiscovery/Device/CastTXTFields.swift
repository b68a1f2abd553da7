/// The documented keys of a Cast TXT record, found in one pass over its entries, and their values
/// read as a receiver writes them, with the problems found on the way.
///
/// The first entry with a key counts (RFC 6763 section 6.4); keys compare ASCII
/// case-insensitively. The problems are recorded in the order the fields are read.
struct CastTXTFields {
    /// The keys the core turns into typed fields.
    enum Key: Int, CaseIterable {
        case id, fn, md, ca, st, rs, ve, ic

        /// The key as written in TXT records.
        var name: String {
            switch self {
            case .id: "id"
            case .fn: "fn"
            case .md: "md"
            case .ca: "ca"
            case .st: "st"
            case .rs: "rs"
            case .ve: "ve"
            case .ic: "ic"
            }
        }

        /// The documented key spelled by `key` (any case), if any.
        init?(bytes key: ArraySlice<UInt8>) {
            guard key.count == 2 else { return nil }
            let pair =
                UInt16(DNSSDBytes.asciiLowercased(key[key.startIndex])) << 8
                | UInt16(DNSSDBytes.asciiLowercased(key[key.startIndex + 1]))
            switch pair {
            case 0x6964: self = .id
            case 0x666E: self = .fn
            case 0x6D64: self = .md
            case 0x6361: self = .ca
            case 0x7374: self = .st
            case 0x7273: self = .rs
            case 0x7665: self = .ve
            case 0x6963: self = .ic
            default: return nil
            }
        }
    }

    /// What the record holds for a key.
    enum Value {
        case absent
        /// Written as a boolean attribute (no `=`).
        case flag
        case bytes(ArraySlice<UInt8>)
    }

    private let txt: TXTRecord
    /// For each key, the index of its first entry; -1 when absent.
    private var firstEntry = InlineArray<8, Int>(repeating: -1)
    /// The TXT record's own issues, then each problem found reading a field.
    private(set) var problems: [DeviceProblem]

    init(_ txt: TXTRecord) {
        self.txt = txt
        problems = txt.issues.isEmpty ? [] : txt.issues.map { .txt($0) }
        for index in txt.entries.indices {
            guard let key = Key(bytes: txt.entries[index].keySlice) else { continue }
            if firstEntry[key.rawValue] < 0 { firstEntry[key.rawValue] = index }
        }
    }

    /// Whether `entry`'s key is one of the documented keys.
    static func isDocumented(_ entry: TXTEntry) -> Bool {
        Key(bytes: entry.keySlice) != nil
    }

    func value(_ key: Key) -> Value {
        let index = firstEntry[key.rawValue]
        guard index >= 0 else { return .absent }
        return txt.entries[index].valueSlice.map(Value.bytes) ?? .flag
    }

    /// The value as text (invalid UTF-8 replaced), recording invalid UTF-8 and unsafe
    /// characters; nil when absent or a flag.
    mutating func text(_ key: Key) -> String? {
        guard case .bytes(let bytes) = value(key) else { return nil }
        return text(bytes, key: key)
    }

    /// The value as text when it is not empty.
    mutating func nonEmptyText(_ key: Key) -> String? {
        text(key).flatMap { $0.isEmpty ? nil : $0 }
    }

    private mutating func text(_ bytes: ArraySlice<UInt8>, key: Key) -> String {
        if let valid = String(validating: bytes, as: UTF8.self) {
            if TextSafety.containsUnsafe(utf8: bytes) { problems.append(.controlCharacters(key: key.name)) }
            return valid
        }
        problems.append(.invalidUTF8(key: key.name))
        let decoded = String(decoding: bytes, as: UTF8.self)
        if TextSafety.containsUnsafe(decoded) { problems.append(.controlCharacters(key: key.name)) }
        return decoded
    }

    /// The non-empty text of `key`, else `fallback` with `missing` recorded (a flag is one
    /// problem, value-missing, not also missing).
    mutating func text(_ key: Key, or fallback: String, missing: DeviceProblem) -> String {
        if let text = text(key), !text.isEmpty { return text }
        recordAbsence(key, missing)
        return fallback
    }

    /// Records that `key` has no usable value: value-missing for a flag, else `missing`.
    mutating func recordAbsence(_ key: Key, _ missing: DeviceProblem) {
        if case .flag = value(key) {
            problems.append(.valueMissing(key: key.name))
        } else {
            problems.append(missing)
        }
    }

    /// The value as a decimal number (a non-empty run of ASCII digits, leading zeros allowed,
    /// below 2^64) or, when it is not one, nil and its text for the report (its UTF-8 and
    /// control-character problems recorded). nil when absent or a flag.
    mutating func decimal(_ key: Key) -> (number: UInt64?, text: String)? {
        guard case .bytes(let bytes) = value(key) else { return nil }
        if let number = Self.decimal(bytes) { return (number, "") }
        if bytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return (nil, String(decoding: bytes, as: UTF8.self))  // digits past 2^64
        }
        return (nil, text(bytes, key: key))
    }

    /// The text of a value that is all digits, for reporting a number out of range.
    func digits(_ key: Key) -> String {
        guard case .bytes(let bytes) = value(key) else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    mutating func record(_ problem: DeviceProblem) {
        problems.append(problem)
    }

    private static func decimal(_ bytes: ArraySlice<UInt8>) -> UInt64? {
        guard !bytes.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return value
    }
}
