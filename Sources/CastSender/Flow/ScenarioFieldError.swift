import CastDiscovery

/// A problem at one field of a scenario file, thrown while it is decoded; ``SenderScenario``
/// adds the file's name (``SenderScenarioError``).
struct ScenarioFieldError: Error, Sendable, Hashable {
    /// Where, e.g. `steps[3] (promptAnswered).granted`; empty for the whole file.
    var location: String
    /// What is wrong.
    var message: String

    /// The same error at the place `prefix` names instead, for a step to add its input's name.
    func relocated(replacing prefix: String, with replacement: String) -> ScenarioFieldError {
        ScenarioFieldError(location: Self.place(location, replacing: prefix, with: replacement), message: message)
    }

    /// `place` with its leading `prefix` replaced.
    static func place(_ place: String, replacing prefix: String, with replacement: String) -> String {
        place.hasPrefix(prefix) ? replacement + place.dropFirst(prefix.count) : place
    }

    /// `steps[2].expect` for a decoder's coding path.
    static func location(of path: [any CodingKey]) -> String {
        var out = ""
        for key in path {
            if let index = key.intValue {
                out += "[\(index)]"
            } else {
                out = join(out, key.stringValue)
            }
        }
        return out
    }

    /// `location.key`, or `key` at the top.
    /// A key that holds a control or format character is quoted and escaped: it comes from the file.
    static func join(_ location: String, _ key: String) -> String {
        let key = SafeText.containsUnsafeScalars(key) ? SafeText.quoted(key) : key
        return location.isEmpty ? key : "\(location).\(key)"
    }
}
