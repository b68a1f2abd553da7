#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Network interface names and indexes, as the system maps them now.
package enum InterfaceName {
    /// The name of the interface with `index` (`eth0`); nil for 0 or an index no interface has.
    package static func of(index: UInt32) -> String? {
        guard index != 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(IF_NAMESIZE) + 1)
        guard if_indextoname(index, &buffer) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The index of the interface named `name`; nil when no interface has that name.
    package static func index(of name: String) -> UInt32? {
        let index = if_nametoindex(name)
        return index == 0 ? nil : index
    }
}
