extension DecodingError {
    /// The error a `Decodable` init throws when the decoded value fails its own validation.
    static func invalidValue(_ error: some Error & CustomStringConvertible, codingPath: [any CodingKey]) -> DecodingError {
        .dataCorrupted(Context(codingPath: codingPath, debugDescription: error.description, underlyingError: error))
    }
}
