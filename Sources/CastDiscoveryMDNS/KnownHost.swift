import CastDiscovery

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A host the user named (`--host`): the text as given and the addresses it stands for, each on
/// the mDNS port.
struct KnownHost: Sendable {
    /// The longest host text accepted (a DNS name's limit).
    static let maximumTextLength = 253
    /// The most addresses a host name may stand for that are asked.
    static let maximumAddresses = 4

    /// The host as the user gave it.
    let text: String
    /// Where its queries go: IPv4 and IPv6 addresses, port 5353.
    let addresses: [SocketAddress]

    /// Parses an IPv4 or IPv6 address (`[addr]` and `addr%iface` accepted), else looks the name
    /// up (the system resolver; numeric forms never touch it).
    ///
    /// - Throws: ``DiscoveryError`` (`.badInput`) naming the host when it is not an address and
    ///   does not resolve, or is not a plausible name.
    init(_ text: String, families: Set<ServiceAddress.Family>) throws(DiscoveryError) {
        self.text = text
        guard !text.isEmpty, text.utf8.count <= Self.maximumTextLength,
            text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else {
            throw DiscoveryError(
                kind: .badInput, message: "\(SafeText.quoted(text)) is not a host address or name",
                fix: "give an IPv4 or IPv6 address, or a host name")
        }
        var bare = Substring(text)
        if bare.hasPrefix("["), bare.hasSuffix("]") { bare = bare.dropFirst().dropLast() }
        var scope: UInt32 = 0
        if let percent = bare.firstIndex(of: "%") {
            let name = String(bare[bare.index(after: percent)...])
            scope = if_nametoindex(name)
            guard scope != 0 else {
                throw DiscoveryError(
                    kind: .badInput, message: "\(SafeText.quoted(text)): no interface \(SafeText.quoted(name))")
            }
            bare = bare[..<percent]
        }
        if let bytes = Self.numeric(String(bare), ipv6: false) {
            addresses = families.contains(.ipv4) ? [SocketAddress(bytes: bytes, port: 5353)] : []
        } else if let bytes = Self.numeric(String(bare), ipv6: true) {
            addresses = families.contains(.ipv6) ? [SocketAddress(bytes: bytes, port: 5353, scope: scope)] : []
        } else if bare.contains(":") || bare.allSatisfy({ $0.isNumber || $0 == "." }) {
            // Looks numeric but is no address (999.1.1.1): never handed to the resolver.
            throw DiscoveryError(
                kind: .badInput, message: "\(SafeText.quoted(text)) is not a valid IPv4 or IPv6 address")
        } else {
            addresses = try Self.lookUp(String(bare), families: families)
        }
        guard !addresses.isEmpty else {
            throw DiscoveryError(
                kind: .badInput, message: "\(SafeText.quoted(text)) has no address of the families asked for",
                fix: "drop -4 or -6")
        }
    }

    /// A host at the given addresses (tests ask a responder on a loopback port).
    init(text: String, addresses: [SocketAddress]) {
        self.text = text
        self.addresses = addresses
    }

    /// The address bytes of a numeric address of the family, or nil.
    private static func numeric(_ text: String, ipv6: Bool) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 16)
        let parsed = text.withCString { inet_pton(ipv6 ? AF_INET6 : AF_INET, $0, &buffer) }
        guard parsed == 1 else { return nil }
        return Array(buffer.prefix(ipv6 ? 16 : 4))
    }

    /// The addresses of a host name, from the system resolver, at most ``maximumAddresses``.
    private static func lookUp(_ name: String, families: Set<ServiceAddress.Family>) throws(DiscoveryError)
        -> [SocketAddress]
    {
        var hints = addrinfo()
        hints.ai_family = families == [.ipv4] ? AF_INET : families == [.ipv6] ? AF_INET6 : AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        hints.ai_flags = AI_ADDRCONFIG  // only families this machine has an address of
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, nil, &hints, &list)
        guard status == 0, let first = list else {
            let reason = String(cString: gai_strerror(status))
            throw DiscoveryError(
                kind: .badInput, message: "cannot look up host \(SafeText.quoted(name)): \(reason)",
                fix: "give its address instead")
        }
        defer { freeaddrinfo(first) }
        var found: [SocketAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            cursor = entry.pointee.ai_next
            guard let raw = entry.pointee.ai_addr else { continue }
            var storage = sockaddr_storage()
            let length = min(Int(entry.pointee.ai_addrlen), MemoryLayout<sockaddr_storage>.size)
            withUnsafeMutableBytes(of: &storage) { target in
                target.copyMemory(from: UnsafeRawBufferPointer(start: UnsafeRawPointer(raw), count: length))
            }
            guard var address = SocketAddress(storage: storage) else { continue }
            address.port = 5353
            // At most half the addresses of each family, so AAAA records cannot crowd out IPv4.
            let sameFamily = found.filter { $0.isIPv6 == address.isIPv6 }.count
            if !found.contains(address), sameFamily < maximumAddresses / 2 { found.append(address) }
        }
        return found
    }

    /// Whether `source` is one of the addresses asked, on the port asked (5353).
    func isAddress(_ source: SocketAddress) -> Bool {
        addresses.contains { $0.bytes == source.bytes && $0.port == source.port }
    }
}
