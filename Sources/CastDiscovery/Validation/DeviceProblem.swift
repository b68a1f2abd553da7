/// Something wrong with what a device published, found while turning it into a ``CastDevice``.
public enum DeviceProblem: Sendable, Hashable, CustomStringConvertible {
    /// No `id` key, or an empty one; the instance name stands in as the id.
    case missingID
    /// No `fn` key, or an empty one; the instance name stands in as the friendly name.
    case missingFriendlyName
    /// No `ve` key.
    case missingProtocolVersion
    /// `ve` is not a number from 2 to 99.
    case invalidProtocolVersion(String)
    /// No `ca` key.
    case missingCapabilities
    /// `ca` is not a decimal number.
    case invalidCapabilities(String)
    /// No `st` key.
    case missingStatus
    /// `st` is neither `0` nor `1`.
    case invalidStatus(String)
    /// The SRV port is 0.
    case zeroPort
    /// The host name resolved to no address.
    case noAddress
    /// A value held bytes that are not UTF-8; they were replaced with U+FFFD.
    case invalidUTF8(key: String)
    /// A value held characters that are unsafe to show raw (controls, bidi or other invisible
    /// format characters; see the package's text rule). Kept in the model; every output escapes them.
    case controlCharacters(key: String)
    /// A key was present as a boolean attribute (no `=`) where a value was expected.
    case valueMissing(key: String)
    /// The TXT record itself was malformed (truncated, duplicate or empty keys).
    case txt(TXTRecordIssue)

    /// Whether Google's receiver-side rules reject a device with this problem; the strict
    /// policy rejects those, the lenient one only records them.
    public var violatesReceiverRules: Bool {
        switch self {
        case .missingID, .missingFriendlyName, .missingProtocolVersion, .invalidProtocolVersion,
            .missingCapabilities, .invalidCapabilities, .missingStatus, .invalidStatus,
            .zeroPort, .noAddress:
            true
        case .valueMissing(let key):
            Self.requiredKeys.contains(key)
        case .invalidUTF8, .controlCharacters, .txt:
            false
        }
    }

    /// The TXT keys Google's receiver rules require a value for.
    public static let requiredKeys: Set<String> = ["id", "fn", "ve", "ca", "st"]

    /// A stable, machine-readable name for the problem (`missing-id`, `invalid-status`, ...).
    public var code: String {
        switch self {
        case .missingID: "missing-id"
        case .missingFriendlyName: "missing-friendly-name"
        case .missingProtocolVersion: "missing-protocol-version"
        case .invalidProtocolVersion: "invalid-protocol-version"
        case .missingCapabilities: "missing-capabilities"
        case .invalidCapabilities: "invalid-capabilities"
        case .missingStatus: "missing-status"
        case .invalidStatus: "invalid-status"
        case .zeroPort: "zero-port"
        case .noAddress: "no-address"
        case .invalidUTF8: "invalid-utf8"
        case .controlCharacters: "control-characters"
        case .valueMissing: "value-missing"
        case .txt(let issue):
            switch issue {
            case .truncated: "txt-truncated"
            case .emptyString: "txt-empty-string"
            case .emptyKey: "txt-empty-key"
            case .duplicateKey: "txt-duplicate-key"
            }
        }
    }

    public var description: String {
        switch self {
        case .missingID: "no device id (TXT key id)"
        case .missingFriendlyName: "no friendly name (TXT key fn)"
        case .missingProtocolVersion: "no protocol version (TXT key ve)"
        case .invalidProtocolVersion(let v):
            "protocol version \(Self.quoted(v)) is not a number from 2 to 99 (TXT key ve)"
        case .missingCapabilities: "no capabilities (TXT key ca)"
        case .invalidCapabilities(let v): "capabilities \(Self.quoted(v)) is not a decimal number (TXT key ca)"
        case .missingStatus: "no status (TXT key st)"
        case .invalidStatus(let v): "status \(Self.quoted(v)) is neither 0 nor 1 (TXT key st)"
        case .zeroPort: "the service port is 0"
        case .noAddress: "the host resolved to no address"
        case .invalidUTF8(let key): "TXT key \(key) is not valid UTF-8; invalid bytes were replaced"
        case .controlCharacters(let key): "TXT key \(key) contains control or invisible formatting characters"
        case .valueMissing(let key): "TXT key \(key) has no value"
        case .txt(let issue): "malformed TXT record: \(issue)"
        }
    }

    /// The value in quotes, cut to 40 characters, with unsafe characters escaped.
    private static func quoted(_ value: String) -> String {
        SafeText.quoted(value, limit: 40)
    }
}
