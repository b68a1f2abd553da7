/// A JSON value read strictly (no number-as-Boolean, no Boolean-as-number), so a scenario file
/// can be checked field by field with messages naming the field.
enum ScenarioJSON: Sendable, Hashable, Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([ScenarioJSON])
    case object([String: ScenarioJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([ScenarioJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: ScenarioJSON].self))
        }
    }

    /// `a string`, `true`, `an array`... for messages.
    var kindName: String {
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
