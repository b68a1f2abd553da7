/// The reasons an application ID or a message namespace given to ``ApplicationID`` or
/// ``DiscoveryCriteria`` is rejected.
///
/// Every case carries the input exactly as it was given, so callers can report it. The
/// ``description`` quotes that input with control and invisible characters escaped (see
/// `SafeText`) and shortens inputs longer than 64 characters.
public enum DiscoveryCriteriaError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The application ID was the empty string.
    case emptyApplicationID
    /// The application ID contains a character other than the ASCII hexadecimal digits
    /// `0-9`, `a-f` and `A-F` (this includes whitespace and non-ASCII digits).
    case invalidApplicationIDCharacters(String)
    /// The application ID is longer than ``ApplicationID/maximumLength`` characters.
    case applicationIDTooLong(String)
    /// The namespace was the empty string.
    case emptyNamespace
    /// The namespace does not begin with the Cast prefix `urn:x-cast:` (case-sensitive).
    case namespaceMissingCastPrefix(String)
    /// The namespace is exactly `urn:x-cast:`, with nothing after the prefix.
    case namespaceMissingSuffix(String)
    /// The namespace is longer than ``DiscoveryCriteria/maximumNamespaceLength`` UTF-16 code units.
    case namespaceTooLong(String)

    /// The rejected input (empty for the `empty…` cases).
    public var input: String {
        switch self {
        case .emptyApplicationID, .emptyNamespace:
            return ""
        case .invalidApplicationIDCharacters(let input),
            .applicationIDTooLong(let input),
            .namespaceMissingCastPrefix(let input),
            .namespaceMissingSuffix(let input),
            .namespaceTooLong(let input):
            return input
        }
    }

    /// A human-readable explanation that names the offending input and the rule it breaks.
    public var description: String {
        switch self {
        case .emptyApplicationID:
            return "invalid application ID \"\": an application ID cannot be empty"
        case .invalidApplicationIDCharacters(let input):
            return "invalid application ID \(Self.quoted(input)): "
                + "only hexadecimal digits 0-9 and A-F are allowed"
        case .applicationIDTooLong(let input):
            return "invalid application ID \(Self.quoted(input)): it is \(input.count) characters "
                + "long, at most \(ApplicationID.maximumLength) are allowed"
        case .emptyNamespace:
            return "invalid namespace \"\": a namespace cannot be empty"
        case .namespaceMissingCastPrefix(let input):
            return "invalid namespace \(Self.quoted(input)): "
                + "a namespace must begin with \"\(DiscoveryCriteria.namespacePrefix)\""
        case .namespaceMissingSuffix(let input):
            return "invalid namespace \(Self.quoted(input)): a namespace must continue after "
                + "\"\(DiscoveryCriteria.namespacePrefix)\""
        case .namespaceTooLong(let input):
            return "invalid namespace \(Self.quoted(input)): it is \(input.utf16.count) UTF-16 "
                + "code units long, at most \(DiscoveryCriteria.maximumNamespaceLength) are allowed"
        }
    }

    /// Quotes `input` with unsafe characters escaped, keeping the first 64 characters.
    private static func quoted(_ input: String) -> String {
        SafeText.quoted(input)
    }
}
