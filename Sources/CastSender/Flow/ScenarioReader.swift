import CastDiscovery
/// Typed, located reads of a scenario file's JSON: every failure is a ``SenderScenarioError``
/// naming the file and the field.
struct ScenarioReader: Sendable {
    typealias Object = [String: ScenarioJSON]

    let file: String

    func error(_ location: String, _ message: String) -> SenderScenarioError {
        SenderScenarioError(file: file, location: location, message: message)
    }

    /// `value` as an object with only `allowed` keys and every `required` key.
    func object(
        _ value: ScenarioJSON, at location: String, allowed: [String], required: [String] = []
    ) throws(SenderScenarioError) -> Object {
        guard case .object(let object) = value else {
            throw error(location, "expected an object, found \(value.kindName)")
        }
        if let unknown = object.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw error(
                Self.join(location, unknown),
                "unknown field \(SafeText.quoted(unknown)); expected one of: \(allowed.joined(separator: ", "))")
        }
        if let missing = required.first(where: { object[$0] == nil }) {
            throw error(Self.join(location, missing), "missing required field")
        }
        return object
    }

    func bool(_ object: Object, _ key: String, at location: String) throws(SenderScenarioError) -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let bool) = value else {
            throw error(Self.join(location, key), "expected true or false, found \(value.kindName)")
        }
        return bool
    }

    func string(_ object: Object, _ key: String, at location: String) throws(SenderScenarioError) -> String? {
        guard let value = object[key] else { return nil }
        guard case .string(let string) = value else {
            throw error(Self.join(location, key), "expected a string, found \(value.kindName)")
        }
        return string
    }

    func array(
        _ object: Object, _ key: String, at location: String, limit: Int
    ) throws(SenderScenarioError) -> [ScenarioJSON]? {
        guard let value = object[key] else { return nil }
        guard case .array(let array) = value else {
            throw error(Self.join(location, key), "expected an array, found \(value.kindName)")
        }
        if array.count > limit { throw error(Self.join(location, key), "more than \(limit) entries") }
        return array
    }

    func strings(_ object: Object, _ key: String, at location: String) throws(SenderScenarioError) -> [String]? {
        guard let array = try array(object, key, at: location, limit: 1000) else { return nil }
        var out: [String] = []
        for (index, value) in array.enumerated() {
            guard case .string(let string) = value else {
                throw error("\(Self.join(location, key))[\(index)]", "expected a string, found \(value.kindName)")
            }
            out.append(string)
        }
        return out
    }

    /// A string naming one of `names`, mapped by `make`.
    func choice<T>(
        _ object: Object, _ key: String, at location: String, names: [String], what: String, _ make: (String) -> T?
    ) throws(SenderScenarioError) -> T? {
        guard let string = try string(object, key, at: location) else { return nil }
        guard let value = make(string) else {
            throw error(
                Self.join(location, key),
                "unknown \(what) \(SafeText.quoted(string)); expected one of: \(names.joined(separator: ", "))")
        }
        return value
    }

    func choice<T: RawRepresentable & CaseIterable>(
        _ object: Object, _ key: String, at location: String, what: String, _ type: T.Type = T.self
    ) throws(SenderScenarioError) -> T? where T.RawValue == String {
        try choice(object, key, at: location, names: T.allCases.map(\.rawValue), what: what) { T(rawValue: $0) }
    }

    /// An array of strings each naming a case of `T` (`[]` allowed); nil when absent.
    func choices<T: RawRepresentable & CaseIterable>(
        _ object: Object, _ key: String, at location: String, what: String, _ type: T.Type = T.self
    ) throws(SenderScenarioError) -> [T]? where T.RawValue == String {
        guard let names = try strings(object, key, at: location) else { return nil }
        var out: [T] = []
        for (index, name) in names.enumerated() {
            guard let value = T(rawValue: name) else {
                throw error(
                    "\(Self.join(location, key))[\(index)]",
                    "unknown \(what) \(SafeText.quoted(name)); expected one of: "
                        + T.allCases.map(\.rawValue).joined(separator: ", "))
            }
            out.append(value)
        }
        return out
    }

    static func join(_ location: String, _ key: String) -> String {
        location.isEmpty ? key : "\(location).\(key)"
    }
}
