import CastDiscovery

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
        /// The path is not a regular file (a device, FIFO, socket or directory, or a link to
        /// one): it is neither read nor replaced, and was left untouched.
        case refused
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
        let path = SafeText.quoted(path, limit: 256)
        return switch kind {
        case .corrupt: "state file \(path) is corrupt (\(message)); treated as absent"
        case .unreadable: "cannot read state file \(path): \(message)"
        case .unwritable: "cannot write state file \(path): \(message)"
        case .refused: "refusing to use state file \(path): \(message); it was left untouched"
        }
    }
}
