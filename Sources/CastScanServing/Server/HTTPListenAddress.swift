import CastDiscovery
#if canImport(Glibc)
import Glibc
#endif

/// Where a server listens: an IPv4 or IPv6 address and a TCP port (0: one the system picks).
public struct HTTPListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The address family and its bytes.
    public enum Host: Sendable, Hashable {
        case ipv4(IPv4Address)
        case ipv6(IPv6Address)
    }

    /// The address to bind.
    public var host: Host
    /// The TCP port.
    public var port: UInt16

    /// Creates a listen address.
    public init(host: Host, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `ADDRESS:PORT`: `127.0.0.1:9464`, `0.0.0.0:9464`, `[::1]:9464` or `[::]:9464`.
    /// Host names are not accepted: a server binds an address, not a name.
    public init(parsing text: String) throws(HTTPServerError) {
        let invalid = HTTPServerError.invalidListenAddress(text)
        guard text.utf8.count <= 64, let colon = text.lastIndex(of: ":") else { throw invalid }
        var hostText = String(text[..<colon])
        let portText = text[text.index(after: colon)...]
        guard !portText.isEmpty, portText.utf8.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
            let port = UInt16(portText)
        else { throw invalid }
        if hostText.hasPrefix("[") {
            guard hostText.hasSuffix("]"), hostText.count > 2 else { throw invalid }
            hostText = String(hostText.dropFirst().dropLast())
            guard let address = IPv6Address(hostText) else { throw invalid }
            self.init(host: .ipv6(address), port: port)
        } else {
            guard let address = IPv4Address(hostText) else { throw invalid }
            self.init(host: .ipv4(address), port: port)
        }
    }

    /// The address `socket` is bound to.
    init(boundTo socket: Int32) throws(HTTPServerError) {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard got == 0 else { throw .badSocketActivation("descriptor \(socket): \(String(cString: strerror(errno)))") }
        switch Int32(storage.ss_family) {
        case AF_INET:
            let address = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self) }
            self.init(
                host: .ipv4(IPv4Address(value: UInt32(bigEndian: address.sin_addr.s_addr))),
                port: UInt16(bigEndian: address.sin_port))
        case AF_INET6:
            let address = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self) }
            let bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
            guard let host = IPv6Address(bytes: bytes) else {
                throw .badSocketActivation("descriptor \(socket): not an IPv6 address")
            }
            self.init(host: .ipv6(host), port: UInt16(bigEndian: address.sin6_port))
        default:
            throw .badSocketActivation("descriptor \(socket) is not an IPv4 or IPv6 socket")
        }
    }

    /// Calls `body` with the address as a `sockaddr_in` or `sockaddr_in6`, and its length.
    func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        switch host {
        case .ipv4(let host):
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = port.bigEndian
            socketAddress.sin_addr.s_addr = host.value.bigEndian
            return withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .ipv6(let host):
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = port.bigEndian
            withUnsafeMutableBytes(of: &socketAddress.sin6_addr) { bytes in
                for (index, byte) in host.bytes.enumerated() { bytes[index] = byte }
            }
            return withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
    }

    /// Whether the address is IPv4.
    var isIPv4: Bool {
        if case .ipv4 = host { return true }
        return false
    }

    /// The default: loopback only, Prometheus' port for this exporter (9464).
    public static let loopbackDefault = HTTPListenAddress(host: .ipv4(IPv4Address(127, 0, 0, 1)), port: 9464)

    /// Whether this is the unspecified address of IPv6 (`[::]`), which also takes IPv4.
    public var isIPv6Unspecified: Bool {
        if case .ipv6(let address) = host { return address.bytes.allSatisfy { $0 == 0 } }
        return false
    }

    /// `127.0.0.1:9464` or `[::]:9464`.
    public var description: String {
        switch host {
        case .ipv4(let address): "\(address):\(port)"
        case .ipv6(let address): "[\(address)]:\(port)"
        }
    }
}
