import CastDiscovery
#if canImport(Glibc)
import Glibc
#endif

/// A TCP socket listening on an address, for a server whose connections a TLS frontend accepts:
/// `[::]` takes IPv4 too, as libmicrohttpd's dual stack does; the address may be reused at once
/// after a restart.
enum ListeningSocket {
    static let backlog: Int32 = 128

    /// The listening socket and the address it is bound to (with the port the system chose for 0).
    static func open(_ address: HTTPListenAddress) throws(HTTPServerError) -> (Int32, HTTPListenAddress) {
        let family = address.isIPv4 ? AF_INET : AF_INET6
        let socket = Glibc.socket(family, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { throw .cannotListen(address, reason: String(cString: strerror(errno))) }
        var yes: Int32 = 1, no: Int32 = 0
        _ = setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if !address.isIPv4 {
            var only: Int32 = address.isIPv6Unspecified ? no : yes
            _ = setsockopt(socket, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &only, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound = address.withSocketAddress { bind(socket, $0, $1) }
        guard bound == 0, listen(socket, backlog) == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw .cannotListen(address, reason: reason)
        }
        do {
            return (socket, try HTTPListenAddress(boundTo: socket))
        } catch {
            close(socket)
            throw error
        }
    }
}
