/// How strictly a resolved service is checked before it becomes a ``CastDevice``.
public enum ValidationPolicy: String, Sendable, Hashable, Codable, CaseIterable {
    /// Google's receiver rules: a device without `id`, `fn`, a `ve` of 2-99, a numeric `ca`,
    /// an `st` of 0 or 1, a non-zero port and an address is rejected with a typed reason.
    case strict
    /// Every device is kept; each problem is recorded in ``CastDevice/problems``. The default
    /// for listing, so that nothing on the network is hidden.
    case lenient
}
