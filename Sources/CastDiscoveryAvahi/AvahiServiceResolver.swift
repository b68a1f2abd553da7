internal import CAvahi
import CastDiscovery

/// Owns an `AvahiServiceResolver` for one copy of an instance (one interface and protocol),
/// kept open so TXT and port changes are reported. Guarded by the poll lock of its client.
///
/// The copy seen over IPv4 is resolved to an IPv4 address and the copy seen over IPv6 to an
/// IPv6 address, so the merged service has both (with `AVAHI_PROTO_UNSPEC`, as avahi-browse
/// uses, both copies resolve to the same IPv4 address).
final class AvahiServiceResolver {
    let pointer: OpaquePointer
    /// The copy it resolves.
    let copy: ServiceCopyKey
    /// Whether it has reported FOUND: a later FOUND is a change (TXT, port, or a moved SRV).
    var hasAnswered = false

    init(
        client: OpaquePointer, copy: ServiceCopyKey, interface: AvahiIfIndex, protocol: AvahiProtocol,
        name: String, type: String, domain: String,
        callback: AvahiServiceResolverCallback, userdata: UnsafeMutableRawPointer
    ) throws(AvahiError) {
        self.copy = copy
        guard
            let pointer = avahi_service_resolver_new(
                client, interface, `protocol`, name, type, domain, `protocol`,
                AvahiConstant.noLookupFlags, callback, userdata)
        else { throw AvahiError(code: avahi_client_errno(client)) }
        self.pointer = pointer
    }

    /// Frees the resolver. Not needed after its client is freed (that frees it).
    func free() { avahi_service_resolver_free(pointer) }
}
