/// A malformed DNS-SD name in escaped presentation form, or a name that breaks a DNS-SD rule.
///
/// Offsets are UTF-8 byte offsets into the text that was being read.
public enum DNSSDNameError: Error, Hashable, CustomStringConvertible {
    /// The text ends with a `\` that escapes nothing.
    case trailingBackslash(offset: Int)
    /// A `\DDD` escape whose value is above 255.
    case decimalEscapeOutOfRange(offset: Int, value: Int)
    /// A `\` followed by a digit but not by three digits.
    case incompleteDecimalEscape(offset: Int)
    /// A name with an empty label (a leading dot or two dots in a row).
    case emptyLabel(offset: Int)
    /// A label longer than the 63 bytes DNS allows, `length` bytes once unescaped.
    case labelTooLong(offset: Int, length: Int)
    /// An empty name where one is required.
    case emptyName
    /// A service-type label that does not start with `_`.
    case missingUnderscore(offset: Int, label: String)
    /// A service name (after its `_`) longer than the 15 characters RFC 6335 allows.
    case serviceNameTooLong(offset: Int, length: Int)
    /// A service name that breaks RFC 6335 syntax (letters, digits and single inner hyphens, at
    /// least one letter).
    case invalidServiceName(offset: Int, name: String)
    /// A service type with no transport label after the service name.
    case missingTransport(offset: Int)
    /// A transport label other than `_tcp` or `_udp`.
    case invalidTransport(offset: Int, label: String)
    /// An instance name with no service type after the instance label.
    case missingServiceType(offset: Int)

    /// A readable explanation that names the offset.
    public var description: String {
        switch self {
        case .trailingBackslash(let offset):
            return "lone backslash at the end of the name (offset \(offset))"
        case .decimalEscapeOutOfRange(let offset, let value):
            return "decimal escape \\\(value) at offset \(offset) is above 255"
        case .incompleteDecimalEscape(let offset):
            return "decimal escape at offset \(offset) needs exactly three digits"
        case .emptyLabel(let offset):
            return "empty label at offset \(offset)"
        case .labelTooLong(let offset, let length):
            return "label at offset \(offset) is \(length) bytes long; the maximum is 63"
        case .emptyName:
            return "the name is empty"
        case .missingUnderscore(let offset, let label):
            return "label \"\(label)\" at offset \(offset) must start with an underscore"
        case .serviceNameTooLong(let offset, let length):
            return "service name at offset \(offset) is \(length) characters long; the maximum is 15"
        case .invalidServiceName(let offset, let name):
            return
                "service name \"\(name)\" at offset \(offset) must be letters, digits and single inner hyphens with at least one letter"
        case .missingTransport(let offset):
            return "missing transport label (_tcp or _udp) at offset \(offset)"
        case .invalidTransport(let offset, let label):
            return "transport label \"\(label)\" at offset \(offset) must be _tcp or _udp"
        case .missingServiceType(let offset):
            return "missing service type after the instance label at offset \(offset)"
        }
    }
}
