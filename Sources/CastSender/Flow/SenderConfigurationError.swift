/// Why a ``SenderAppConfiguration`` describes an app that cannot exist.
public struct SenderConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in one sentence.
    public var message: String

    /// Creates an error.
    public init(message: String) {
        self.message = message
    }

    public var description: String { "invalid sender app configuration: \(message)" }
}
