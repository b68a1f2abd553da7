/// What kind of JSON value stands at a place of a scenario file, for messages such as
/// "expected a string, found a number". Decoding it looks at the value without building it.
enum ScenarioValueKind: Decodable, Sendable, Hashable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number
    case string
    case array
    case object

    init(from decoder: any Decoder) throws {
        if (try? decoder.unkeyedContainer()) != nil {
            self = .array
            return
        }
        if (try? decoder.container(keyedBy: ScenarioAnyKey.self)) != nil {
            self = .object
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if (try? container.decode(Double.self)) != nil {
            self = .number
        } else {
            self = .string
        }
    }

    /// `a string`, `true`, `an array`...
    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// A coding key of any name: the fields an object of a scenario file really has.
struct ScenarioAnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
