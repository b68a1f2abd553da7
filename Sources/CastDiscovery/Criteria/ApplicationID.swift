/// A validated Cast receiver application ID, such as `CC1AD845` (the Default Media Receiver).
///
/// Rules, following the Android sender SDK (which upper-cases IDs and rejects anything else):
/// - Only the ASCII hexadecimal digits `0-9`, `a-f`, `A-F` are accepted; lower-case letters are
///   upper-cased, so `cc1ad845` becomes `CC1AD845`. Whitespace is not trimmed and is rejected,
///   as are non-ASCII digits such as `١٢`.
/// - The length must be 1 to ``maximumLength`` (32) characters. Registered IDs are 8
///   characters; the bound only rejects absurd input while staying well inside the 63-byte DNS
///   label that carries `_<ID>` on the wire.
///
/// Values compare, hash and sort by their upper-case ``rawValue``. An ID encodes to and decodes
/// from a single JSON string; decoding validates it like ``init(_:)``.
public struct ApplicationID: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    /// The longest application ID accepted, in characters.
    public static let maximumLength = 32

    /// The Default Media Receiver, `CC1AD845`.
    public static let defaultMediaReceiver = ApplicationID(uncheckedUppercased: "CC1AD845")

    /// The ID in upper case, e.g. `CC1AD845`.
    public let rawValue: String

    /// Validates `string` and stores it upper-cased.
    ///
    /// - Throws: ``DiscoveryCriteriaError/emptyApplicationID``,
    ///   ``DiscoveryCriteriaError/applicationIDTooLong(_:)`` or
    ///   ``DiscoveryCriteriaError/invalidApplicationIDCharacters(_:)``.
    public init(_ string: String) throws(DiscoveryCriteriaError) {
        var uppercased: [UInt8] = []
        for scalar in string.unicodeScalars {
            switch scalar.value {
            case 0x30...0x39, 0x41...0x46:  // 0-9, A-F
                uppercased.append(UInt8(scalar.value))
            case 0x61...0x66:  // a-f
                uppercased.append(UInt8(scalar.value - 0x20))
            default:
                throw .invalidApplicationIDCharacters(string)
            }
        }
        if uppercased.isEmpty { throw .emptyApplicationID }
        if uppercased.count > Self.maximumLength { throw .applicationIDTooLong(string) }
        rawValue = String(decoding: uppercased, as: UTF8.self)
    }

    private init(uncheckedUppercased rawValue: String) {
        self.rawValue = rawValue
    }

    /// The DNS-SD subtype label for this application, `_` followed by the ID (e.g. `_CC1AD845`).
    public var subtypeLabel: String { "_" + rawValue }

    /// The upper-case ID, same as ``rawValue``.
    public var description: String { rawValue }

    /// Orders IDs by their upper-case ``rawValue``.
    public static func < (lhs: ApplicationID, rhs: ApplicationID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// Decodes an ID from a single string, validating it like ``init(_:)``.
    ///
    /// - Throws: `DecodingError.dataCorrupted` (with the ``DiscoveryCriteriaError`` as its
    ///   underlying error) when the string is not a valid application ID.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        do {
            try self.init(string)
        } catch {
            throw DecodingError.invalidValue(error, codingPath: container.codingPath)
        }
    }

    /// Encodes the ID as its upper-case string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
