import CastDiscovery

/// The DNS names a querier asks for a browse request: each browse type's PTR name, and the base
/// type's name, under which the instances live.
struct MDNSBrowseNames: Sendable {
    /// Each browse type, as events name it, with the name its PTR question asks.
    let browses: [(type: String, name: DNSName)]
    /// The base service type's name (`_googlecast._tcp.local.`).
    let serviceName: DNSName

    /// The names of `request`'s types.
    ///
    /// - Throws: ``DiscoveryError`` of kind `invalidBrowseType` when a type makes no DNS name
    ///   (a label or the whole name too long).
    init(_ request: BrowseRequest) throws(DiscoveryError) {
        var browses: [(type: String, name: DNSName)] = []
        for (type, serviceType) in zip(request.browseTypes, request.serviceTypes) {
            do {
                browses.append((type, try DNSName(serviceType)))
            } catch {
                throw DiscoveryError(
                    kind: .invalidBrowseType, message: "cannot browse \(SafeText.quoted(type)): \(error)")
            }
        }
        do {
            // A request is never empty: its first type's base is the base of them all.
            serviceName = try DNSName(request.serviceTypes[0].base)
        } catch {
            throw DiscoveryError(
                kind: .invalidBrowseType, message: "cannot browse \(SafeText.quoted(request.browseTypes[0])): \(error)")
        }
        self.browses = browses
    }
}
