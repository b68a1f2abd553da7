/// A dotted version number: the Cast SDK's `4.8.3`, Xcode's `15.4` or an iOS deployment
/// target such as `13.0`.
///
/// A version has 1 to ``maximumComponentCount`` numeric components. Missing trailing components
/// count as zero, so `4.8` equals `4.8.0` and both sort before `4.8.1`; ``description`` keeps the
/// components as written. Versions encode to and decode from a single string, validated like
/// ``init(parsing:)``.
public struct SDKVersion: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The most components a version may have.
    public static let maximumComponentCount = 4

    /// The most digits a component may have.
    public static let maximumComponentDigits = 9

    /// The components as written, e.g. `[4, 8, 3]`.
    public let components: [Int]

    /// Creates a version from numbers; negative numbers are clamped to zero.
    public init(_ major: Int, _ minor: Int = 0, _ patch: Int = 0) {
        components = [max(0, major), max(0, minor), max(0, patch)]
    }

    /// Parses a version such as `4.8.3`, `12` or `15.0.1`.
    ///
    /// Only ASCII digits and dots are accepted; nothing is trimmed. Leading zeros are allowed
    /// (`04.8` is `4.8`).
    ///
    /// - Throws: the ``SDKVersionError`` naming the first rule the string breaks.
    public init(parsing string: String) throws(SDKVersionError) {
        if string.isEmpty { throw .empty }
        var parts: [Int] = []
        var digits = 0
        var value = 0
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                if digits > Self.maximumComponentDigits { throw .componentTooLarge(string) }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "."):
                if digits == 0 { throw .emptyComponent(string) }
                parts.append(value)
                if parts.count >= Self.maximumComponentCount { throw .tooManyComponents(string) }
                digits = 0
                value = 0
            default:
                throw .invalidCharacter(string)
            }
        }
        if digits == 0 { throw .emptyComponent(string) }
        parts.append(value)
        components = parts
    }

    /// The first component.
    public var major: Int { components[0] }
    /// The second component, zero when absent.
    public var minor: Int { components.count > 1 ? components[1] : 0 }
    /// The third component, zero when absent.
    public var patch: Int { components.count > 2 ? components[2] : 0 }

    /// The components without trailing zeros, used for equality, hashing and ordering.
    private var significant: ArraySlice<Int> {
        var slice = components[...]
        while let last = slice.last, last == 0 { slice = slice.dropLast() }
        return slice
    }

    /// Two versions are equal when they differ only by trailing zeros (`4.8 == 4.8.0`).
    public static func == (lhs: SDKVersion, rhs: SDKVersion) -> Bool {
        lhs.significant.elementsEqual(rhs.significant)
    }

    /// Hashes the components without trailing zeros.
    public func hash(into hasher: inout Hasher) {
        for component in significant { hasher.combine(component) }
    }

    /// Compares component by component, a missing component counting as zero.
    public static func < (lhs: SDKVersion, rhs: SDKVersion) -> Bool {
        lhs.significant.lexicographicallyPrecedes(rhs.significant)
    }

    /// The components as written, joined by dots, e.g. `4.8.3`.
    public var description: String {
        components.map(String.init).joined(separator: ".")
    }

    /// Decodes a version from a single string, validated like ``init(parsing:)``.
    ///
    /// - Throws: `DecodingError.dataCorrupted` (with the ``SDKVersionError`` as its underlying
    ///   error) when the string is not a valid version.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        do {
            try self.init(parsing: string)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: container.codingPath,
                    debugDescription: error.description,
                    underlyingError: error))
        }
    }

    /// Encodes the version as its ``description``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
