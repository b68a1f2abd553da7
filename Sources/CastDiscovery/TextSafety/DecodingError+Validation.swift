extension DecodingError {
    /// The error a `Decodable` init throws when the decoded value fails its own validation.
    static func invalidValue(_ error: some Error & CustomStringConvertible, codingPath: [any CodingKey])
        -> DecodingError
    {
        .dataCorrupted(Context(codingPath: codingPath, debugDescription: error.description, underlyingError: error))
    }

    /// Where in the document the decoder stopped and why (`events[2].at: missing`), for a
    /// document already checked to be JSON.
    /// A key or a reason that holds a control or format character is quoted and escaped
    /// (``SafeText``): it comes from the document.
    package var summary: String {
        let error = self
        func safe(_ text: String) -> String { SafeText.containsUnsafeScalars(text) ? SafeText.quoted(text) : text }
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + safe(key.stringValue)
                }
            }
            return text.isEmpty ? "top level" : text
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not JSON"
        case .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(safe(context.debugDescription))"
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])): missing"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(type)"
        @unknown default:
            return safe("\(error)")
        }
    }
}
