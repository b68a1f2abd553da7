extension DNSSDNameError {
    /// The same error with its offset moved by `delta`, for errors found in a part of a longer text.
    func shifted(by delta: Int) -> DNSSDNameError {
        switch self {
        case let .trailingBackslash(offset): return .trailingBackslash(offset: offset + delta)
        case let .decimalEscapeOutOfRange(offset, value): return .decimalEscapeOutOfRange(offset: offset + delta, value: value)
        case let .incompleteDecimalEscape(offset): return .incompleteDecimalEscape(offset: offset + delta)
        case let .emptyLabel(offset): return .emptyLabel(offset: offset + delta)
        case let .labelTooLong(offset, length): return .labelTooLong(offset: offset + delta, length: length)
        case .emptyName: return .missingServiceType(offset: delta)
        case let .missingUnderscore(offset, label): return .missingUnderscore(offset: offset + delta, label: label)
        case let .serviceNameTooLong(offset, length): return .serviceNameTooLong(offset: offset + delta, length: length)
        case let .invalidServiceName(offset, name): return .invalidServiceName(offset: offset + delta, name: name)
        case let .missingTransport(offset): return .missingTransport(offset: offset + delta)
        case let .invalidTransport(offset, label): return .invalidTransport(offset: offset + delta, label: label)
        case let .missingServiceType(offset): return .missingServiceType(offset: offset + delta)
        }
    }
}
