import CastDiscovery

/// Why a device file cannot be published: the file, the entry and what is wrong.
public struct ReceiverFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file's path, as given.
    public var path: String
    /// What is wrong, and where in the file.
    public var message: String

    /// Creates an error.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// The path (a byte that is not UTF-8 as `\xHH`; quoted and escaped when it holds a control
    /// or format character), and the message.
    public var description: String {
        let display = RawPath.display(path)
        return
            "\(SafeText.containsUnsafeScalars(display) ? SafeText.quoted(display, limit: .max) : display): \(message)"
    }

    /// What is wrong with one entry, before the file's path and the entry's index are known.
    struct Reason: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }
}
