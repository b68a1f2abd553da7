internal import CAvahi
import CastDiscovery

/// Owns an `AvahiEntryGroup`: the records of one published service (the service on each
/// interface chosen, its subtypes), committed together and withdrawn together. Freed with its
/// client, or by ``free()``. Guarded by the poll lock.
final class AvahiEntryGroup {
    private(set) var pointer: OpaquePointer?

    /// Makes an empty group on the client `client` (the pointer a client callback gets, which
    /// may run before ``AvahiClient``'s initializer returns); its state changes go to `callback`.
    init(client: OpaquePointer, callback: AvahiEntryGroupCallback, userdata: UnsafeMutableRawPointer?)
        throws(AvahiError)
    {
        guard let pointer = avahi_entry_group_new(client, callback, userdata) else {
            throw AvahiError(code: avahi_client_errno(client))
        }
        self.pointer = pointer
    }

    private func check(_ result: Int32) throws(AvahiError) {
        guard result >= 0 else { throw AvahiError(code: result) }
    }

    /// `avahi_entry_group_add_service_strlst` on one interface (or every one), both families,
    /// on this host's name.
    func addService(interface: AvahiIfIndex, name: String, type: String, port: UInt16, txt: [[UInt8]])
        throws(AvahiError)
    {
        guard let pointer else { throw .badState }
        let list = AvahiTXTList(txt)
        defer { list.free() }
        try check(
            avahi_entry_group_add_service_strlst(
                pointer, interface, AvahiConstant.protocolUnspecified, AvahiPublishFlags(rawValue: 0),
                name, type, nil, nil, port, list.pointer))
    }

    /// `avahi_entry_group_add_service_subtype`: `subtype` is the full name
    /// (`_CC1AD845._sub._googlecast._tcp`).
    func addSubtype(interface: AvahiIfIndex, name: String, type: String, subtype: String) throws(AvahiError) {
        guard let pointer else { throw .badState }
        try check(
            avahi_entry_group_add_service_subtype(
                pointer, interface, AvahiConstant.protocolUnspecified, AvahiPublishFlags(rawValue: 0), name, type, nil,
                subtype))
    }

    /// `avahi_entry_group_update_service_txt_strlst`: the new TXT is announced at once.
    func updateTXT(interface: AvahiIfIndex, name: String, type: String, txt: [[UInt8]]) throws(AvahiError) {
        guard let pointer else { throw .badState }
        let list = AvahiTXTList(txt)
        defer { list.free() }
        try check(
            avahi_entry_group_update_service_txt_strlst(
                pointer, interface, AvahiConstant.protocolUnspecified, AvahiPublishFlags(rawValue: 0), name, type, nil,
                list.pointer))
    }

    /// `avahi_entry_group_commit`: the daemon probes the names, then announces.
    func commit() throws(AvahiError) {
        guard let pointer else { throw .badState }
        try check(avahi_entry_group_commit(pointer))
    }

    /// `avahi_entry_group_reset`: withdraws every record (goodbyes) and empties the group.
    func reset() {
        if let pointer { _ = avahi_entry_group_reset(pointer) }
    }

    /// Frees the group, withdrawing what it published; safe to call twice.
    func free() {
        if let pointer { avahi_entry_group_free(pointer) }
        pointer = nil
    }

    /// Forgets the pointer without freeing it: its client was freed, and the group with it.
    func abandon() {
        pointer = nil
    }

    /// The name Avahi picks after a conflict on `name` (`Chromecast-… #2`), as its daemon does.
    static func alternativeName(for name: String) -> String {
        guard let alternative = avahi_alternative_service_name(name) else { return name + " #2" }
        defer { avahi_free(alternative) }
        return String(cString: alternative)
    }
}
