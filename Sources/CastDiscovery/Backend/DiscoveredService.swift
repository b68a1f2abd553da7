/// A resolved service as a backend reports it: the merged result of every interface and
/// address family it was seen on, and which browses (base type or subtypes) reported it.
public struct DiscoveredService: Sendable, Hashable {
    /// The merged resolution: the newest host, port and TXT, and every address seen.
    public var service: ResolvedService
    /// The browse types that currently report the instance, as passed to the backend
    /// (`_googlecast._tcp`, `_CC1AD845._sub._googlecast._tcp`).
    public var browseTypes: Set<String>

    /// Creates a discovered service.
    public init(service: ResolvedService, browseTypes: Set<String>) {
        self.service = service
        self.browseTypes = browseTypes
    }

    /// The key that identifies the instance: name, type and domain.
    public var key: ServiceKey {
        ServiceKey(name: service.instanceName, type: service.serviceType, domain: service.domain)
    }
}
