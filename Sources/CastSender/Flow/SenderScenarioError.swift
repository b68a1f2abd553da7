/// Why a scenario file cannot be used: it names the file, the place in it and the problem.
public struct SenderScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, as given.
    public var file: String
    /// Where in the file, e.g. `steps[3] (promptAnswered).granted`; empty for the whole file.
    public var location: String
    /// What is wrong.
    public var message: String

    /// Creates an error.
    public init(file: String, location: String, message: String) {
        self.file = file
        self.location = location
        self.message = message
    }

    /// `file: location: message`.
    public var description: String {
        location.isEmpty ? "\(file): \(message)" : "\(file): \(location): \(message)"
    }
}
