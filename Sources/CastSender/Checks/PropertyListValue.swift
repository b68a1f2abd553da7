#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One value of a property list, as decoded from XML, binary or OpenStep text: what the
/// Info.plist checks look at, typed, so a check says what it found instead of casting `Any`.
enum PropertyListValue: Decodable, Sendable, Hashable {
    case string(String)
    case boolean(Bool)
    case integer(Int)
    case real(Double)
    case date(Date)
    case data(Data)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])
    /// A value none of the above decodes (a dictionary with keys that are not strings, an
    /// integer beyond 64 bits, a UID): kept, so the rest of the file can still be checked.
    case unsupported

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Strings first: an XML `<string>1</string>` must stay a string.
        if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .boolean(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .real(value)
        } else if let value = try? container.decode(Date.self) {
            self = .date(value)
        } else if let value = try? container.decode(Data.self) {
            self = .data(value)
        } else if let value = try? container.decode([String: PropertyListValue].self) {
            self = .dictionary(value)
        } else if let value = try? container.decode([PropertyListValue].self) {
            self = .array(value)
        } else {
            self = .unsupported
        }
    }

    /// The text, when the value is a string.
    var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// The elements, when the value is an array.
    var array: [PropertyListValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// A phrase naming the value's type, such as "a string", for findings and errors.
    var typeName: String {
        switch self {
        case .string: "a string"
        case .dictionary: "a dictionary"
        case .array: "an array"
        case .data: "data"
        case .date: "a date"
        case .boolean, .integer, .real: "a number or boolean"
        case .unsupported: "a value of an unexpected type"
        }
    }
}
