import CastDiscovery

/// One JSON object of a scenario file, read strictly by its decoder: a value that is not an
/// object, an unknown field, a missing required field or a value of the wrong type is a
/// ``ScenarioFieldError`` naming the field (`steps[2].expect.screen`).
struct ScenarioObject<Key: CodingKey & CaseIterable & RawRepresentable<String>> {
    /// Where the object is in the file.
    let location: String
    private let container: KeyedDecodingContainer<ScenarioAnyKey>

    /// Opens the object `decoder` stands at, allowing `allowed` fields (all of `Key` by default;
    /// nil: not checked yet) and requiring `required`.
    init(_ decoder: any Decoder, allowed: [Key]? = Array(Key.allCases), required: [Key] = []) throws(ScenarioFieldError)
    {
        location = ScenarioFieldError.location(of: decoder.codingPath)
        do {
            container = try decoder.container(keyedBy: ScenarioAnyKey.self)
        } catch {
            let found = (try? ScenarioValueKind(from: decoder))?.description ?? "something else"
            throw ScenarioFieldError(location: location, message: "expected an object, found \(found)")
        }
        let names = allowed?.map(\.rawValue) ?? []
        if allowed != nil,
            let unknown = container.allKeys.map(\.stringValue).sorted().first(where: { !names.contains($0) })
        {
            throw ScenarioFieldError(
                location: ScenarioFieldError.join(location, unknown),
                message: "unknown field \(SafeText.quoted(unknown)); expected one of: \(names.joined(separator: ", "))")
        }
        if let missing = required.first(where: { !container.contains(ScenarioAnyKey(stringValue: $0.rawValue)) }) {
            throw ScenarioFieldError(
                location: ScenarioFieldError.join(location, missing.rawValue), message: "missing required field")
        }
    }

    /// `value`, which a required field always has once the object is open.
    func required<T>(_ value: T?, _ key: Key) throws(ScenarioFieldError) -> T {
        guard let value else { throw error(key, "missing required field") }
        return value
    }

    /// Whether the object has the field.
    func contains(_ key: Key) -> Bool {
        container.contains(ScenarioAnyKey(stringValue: key.rawValue))
    }

    /// An error at `key`.
    func error(_ key: Key, _ message: String) -> ScenarioFieldError {
        ScenarioFieldError(location: ScenarioFieldError.join(location, key.rawValue), message: message)
    }

    /// An error at the object itself.
    func error(_ message: String) -> ScenarioFieldError {
        ScenarioFieldError(location: location, message: message)
    }

    /// The field's value, decoded as `type`; nil when absent. A nested scenario type's own
    /// errors pass through; any other failure says what was expected and what was found.
    func decode<T: Decodable>(_ type: T.Type, _ key: Key, expected: String) throws(ScenarioFieldError) -> T? {
        let anyKey = ScenarioAnyKey(stringValue: key.rawValue)
        guard container.contains(anyKey) else { return nil }
        do {
            return try container.decode(T.self, forKey: anyKey)
        } catch let error as ScenarioFieldError {
            throw error
        } catch {
            let found = (try? container.decode(ScenarioValueKind.self, forKey: anyKey))?.description ?? "something else"
            throw self.error(key, "expected \(expected), found \(found)")
        }
    }

    func bool(_ key: Key) throws(ScenarioFieldError) -> Bool? {
        try decode(Bool.self, key, expected: "true or false")
    }

    func string(_ key: Key) throws(ScenarioFieldError) -> String? {
        try decode(String.self, key, expected: "a string")
    }

    func number(_ key: Key) throws(ScenarioFieldError) -> Double? {
        try decode(Double.self, key, expected: "a number")
    }

    /// An array of `T` of at most `limit` elements; nil when absent.
    func array<T: Decodable>(_ key: Key, of type: T.Type, limit: Int) throws(ScenarioFieldError) -> [T]? {
        guard let count = try decode(ScenarioArrayCount.self, key, expected: "an array")?.count else { return nil }
        if count > limit { throw error(key, "more than \(limit) entries") }
        return try decode([ScenarioElement<T>].self, key, expected: "an array")?.map(\.value)
    }

    /// An array of strings (at most 1,000); nil when absent.
    func strings(_ key: Key) throws(ScenarioFieldError) -> [String]? {
        try array(key, of: ScenarioString.self, limit: 1000)?.map(\.value)
    }

    /// A string naming one of `names`, mapped by `make`; nil when absent.
    func choice<T>(_ key: Key, names: [String], what: String, _ make: (String) -> T?) throws(ScenarioFieldError) -> T? {
        guard let string = try string(key) else { return nil }
        guard let value = make(string) else {
            throw error(
                key, "unknown \(what) \(SafeText.quoted(string)); expected one of: \(names.joined(separator: ", "))")
        }
        return value
    }

    /// A string naming a case of `T`; nil when absent.
    func choice<T: RawRepresentable & CaseIterable>(_ key: Key, what: String, _ type: T.Type = T.self)
        throws(ScenarioFieldError) -> T? where T.RawValue == String
    {
        try choice(key, names: T.allCases.map(\.rawValue), what: what) { T(rawValue: $0) }
    }

    /// An array of strings each naming a case of `T` (`[]` allowed); nil when absent.
    func choices<T: RawRepresentable & CaseIterable>(_ key: Key, what: String, _ type: T.Type = T.self)
        throws(ScenarioFieldError) -> [T]? where T.RawValue == String
    {
        guard let names = try strings(key) else { return nil }
        var out: [T] = []
        for (index, name) in names.enumerated() {
            guard let value = T(rawValue: name) else {
                throw ScenarioFieldError(
                    location: "\(ScenarioFieldError.join(location, key.rawValue))[\(index)]",
                    message: "unknown \(what) \(SafeText.quoted(name)); expected one of: "
                        + T.allCases.map(\.rawValue).joined(separator: ", "))
            }
            out.append(value)
        }
        return out
    }
}

/// The length of an array, found without decoding its elements.
struct ScenarioArrayCount: Decodable {
    var count: Int

    init(from decoder: any Decoder) throws {
        count = try decoder.unkeyedContainer().count ?? 0
    }
}

/// One element of a scenario array: a string element of the wrong type says where it is.
struct ScenarioElement<Value: Decodable>: Decodable {
    var value: Value

    init(from decoder: any Decoder) throws {
        do {
            value = try decoder.singleValueContainer().decode(Value.self)
        } catch let error as ScenarioFieldError {
            throw error
        } catch {
            let found = (try? ScenarioValueKind(from: decoder))?.description ?? "something else"
            let what = Value.self == ScenarioString.self ? "a string" : "a valid value"
            throw ScenarioFieldError(
                location: ScenarioFieldError.location(of: decoder.codingPath),
                message: "expected \(what), found \(found)")
        }
    }
}

/// A string element of a scenario array.
struct ScenarioString: Decodable {
    var value: String

    init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(String.self)
    }
}
