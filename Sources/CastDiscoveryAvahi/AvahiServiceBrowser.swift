internal import CAvahi

/// Owns an `AvahiServiceBrowser` for one browse type (a base type or a subtype).
/// Guarded by the poll lock of its client.
final class AvahiServiceBrowser {
    let pointer: OpaquePointer
    /// The browse type as requested (`_CC1AD845._sub._googlecast._tcp`).
    let browseType: String

    init(
        client: OpaquePointer, browseType: String, interface: AvahiIfIndex,
        callback: AvahiServiceBrowserCallback, userdata: UnsafeMutableRawPointer
    ) throws(AvahiError) {
        guard
            let pointer = avahi_service_browser_new(
                client, interface, AvahiConstant.protocolUnspecified,
                browseType, nil, AvahiConstant.noLookupFlags, callback, userdata)
        else { throw AvahiError(code: avahi_client_errno(client)) }
        self.pointer = pointer
        self.browseType = browseType
    }

    /// Frees the browser. Not needed after its client is freed (that frees it).
    func free() { avahi_service_browser_free(pointer) }
}
