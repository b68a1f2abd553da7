/// A resolve that failed: which instance, and why.
public struct ResolveFailure: Sendable, Hashable {
    /// The instance.
    public var service: ServiceKey
    /// Why it failed.
    public var error: DiscoveryError

    /// Creates a failure.
    public init(service: ServiceKey, error: DiscoveryError) {
        self.service = service
        self.error = error
    }
}
