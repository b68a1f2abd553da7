extension DNSSDNameError {
    /// The same error with its offset moved by `delta`, for errors found in a part of a longer text.
    func shifted(by delta: Int) -> DNSSDNameError {
        switch self {
        case .trailingBackslash(let offset): return .trailingBackslash(offset: offset + delta)
        case .decimalEscapeOutOfRange(let offset, let value):
            return .decimalEscapeOutOfRange(offset: offset + delta, value: value)
        case .incompleteDecimalEscape(let offset): return .incompleteDecimalEscape(offset: offset + delta)
        case .emptyLabel(let offset): return .emptyLabel(offset: offset + delta)
        case .labelTooLong(let offset, let length): return .labelTooLong(offset: offset + delta, length: length)
        case .emptyName: return .missingServiceType(offset: delta)
        case .missingUnderscore(let offset, let label): return .missingUnderscore(offset: offset + delta, label: label)
        case .serviceNameTooLong(let offset, let length):
            return .serviceNameTooLong(offset: offset + delta, length: length)
        case .invalidServiceName(let offset, let name): return .invalidServiceName(offset: offset + delta, name: name)
        case .missingTransport(let offset): return .missingTransport(offset: offset + delta)
        case .invalidTransport(let offset, let label): return .invalidTransport(offset: offset + delta, label: label)
        case .missingServiceType(let offset): return .missingServiceType(offset: offset + delta)
        }
    }
}
