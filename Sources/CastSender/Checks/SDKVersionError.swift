import CastDiscovery
/// Why a string is not a version number accepted by ``SDKVersion/init(parsing:)``.
///
/// Every case carries the input as given; ``description`` quotes it safely (control characters
/// escaped, long inputs shortened).
public enum SDKVersionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The string was empty.
    case empty
    /// The string contains a character other than the ASCII digits and `.`
    /// (this includes spaces, signs, letters and suffixes such as `-beta`).
    case invalidCharacter(String)
    /// A component between dots is empty, as in `4..8`, `.4` or `4.8.`.
    case emptyComponent(String)
    /// There are more than ``SDKVersion/maximumComponentCount`` components.
    case tooManyComponents(String)
    /// A component has more than ``SDKVersion/maximumComponentDigits`` digits.
    case componentTooLarge(String)

    /// The rejected input (empty for ``empty``).
    public var input: String {
        switch self {
        case .empty: ""
        case .invalidCharacter(let input), .emptyComponent(let input),
            .tooManyComponents(let input), .componentTooLarge(let input):
            input
        }
    }

    /// A sentence naming the input and the rule it breaks.
    public var description: String {
        let quoted = SafeText.quoted(input)
        switch self {
        case .empty:
            return "invalid version \"\": a version cannot be empty"
        case .invalidCharacter:
            return "invalid version \(quoted): only digits separated by dots are allowed, "
                + "like 4.8.3"
        case .emptyComponent:
            return "invalid version \(quoted): every part between dots must have a digit"
        case .tooManyComponents:
            return "invalid version \(quoted): at most \(SDKVersion.maximumComponentCount) "
                + "parts are allowed"
        case .componentTooLarge:
            return "invalid version \(quoted): a part has more than "
                + "\(SDKVersion.maximumComponentDigits) digits"
        }
    }
}
