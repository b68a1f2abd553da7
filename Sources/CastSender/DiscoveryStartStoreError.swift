/// Why the discovery start file could not be used.
public struct DiscoveryStartStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: String, Sendable, Hashable {
        /// The file exists but is not a valid store; it was treated as absent.
        case corrupt
        /// The path exists but cannot be read.
        case unreadable
        /// The file cannot be written.
        case unwritable
    }

    /// The kind of failure.
    public var kind: Kind
    /// The file's path.
    public var path: String
    /// What went wrong.
    public var message: String

    /// Creates an error.
    public init(kind: Kind, path: String, message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }

    public var description: String {
        switch kind {
        case .corrupt: "discovery start file \(path) is corrupt (\(message)); treated as absent"
        case .unreadable: "cannot read discovery start file \(path): \(message)"
        case .unwritable: "cannot write discovery start file \(path): \(message)"
        }
    }
}
