internal import CAvahi

/// An `AvahiStringList` made from TXT strings, kept in the order given.
struct AvahiTXTList {
    let pointer: UnsafeMutablePointer<AvahiStringList>?

    /// Builds the list. `avahi_string_list_add_arbitrary` puts each string first, and the list
    /// goes on the wire reversed (avahi-common/strlst.c), so adding in order keeps wire order.
    init(_ strings: [[UInt8]]) {
        var list: UnsafeMutablePointer<AvahiStringList>?
        for string in strings {
            list = string.withUnsafeBufferPointer { avahi_string_list_add_arbitrary(list, $0.baseAddress, $0.count) }
        }
        pointer = list
    }

    func free() { avahi_string_list_free(pointer) }
}
