import CastDiscovery

#if canImport(Glibc)
import Glibc
#endif

/// A UDP socket for mDNS, one family: either the shared listener on port 5353 (every stack on
/// the host binds it too, with `SO_REUSEADDR`/`SO_REUSEPORT`) or a legacy-unicast socket on an
/// ephemeral port, whose questions responders answer directly (RFC 6762 section 6.7).
///
/// Sends go out with TTL / hop limit 255 on an interface named per send; every received
/// datagram comes with the interface it arrived on (`IP_PKTINFO` / `IPV6_RECVPKTINFO`). The
/// socket is non-blocking; the querier's loop polls it. Owned by one thread.
final class MDNSSocket: MDNSTransport {
    /// A datagram and where it came from.
    struct Datagram {
        var bytes: [UInt8]
        var source: SocketAddress
        var interface: Int32
    }

    let descriptor: Int32
    let isIPv6: Bool
    /// The local port (5353, or the ephemeral one).
    private(set) var port: UInt16 = 0
    private var joined: Set<Int32> = []

    /// A socket of the family, bound to `port` on every address (0: an ephemeral port).
    init(ipv6: Bool, port: UInt16) throws(MDNSSocketError) {
        isIPv6 = ipv6
        let family = ipv6 ? AF_INET6 : AF_INET
        descriptor = socket(
            family, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw MDNSSocketError("socket", errno) }
        do throws(MDNSSocketError) {
            if port != 0 {
                try option(SOL_SOCKET, SO_REUSEADDR, 1, "SO_REUSEADDR")
                try option(SOL_SOCKET, SO_REUSEPORT, 1, "SO_REUSEPORT")
            }
            if ipv6 {
                try option(Int32(IPPROTO_IPV6), IPV6_V6ONLY, 1, "IPV6_V6ONLY")
                try option(Int32(IPPROTO_IPV6), IPV6_RECVPKTINFO, 1, "IPV6_RECVPKTINFO")
                try option(Int32(IPPROTO_IPV6), IPV6_MULTICAST_HOPS, 255, "IPV6_MULTICAST_HOPS")
                try option(Int32(IPPROTO_IPV6), IPV6_UNICAST_HOPS, 255, "IPV6_UNICAST_HOPS")
                try option(Int32(IPPROTO_IPV6), IPV6_MULTICAST_LOOP, 1, "IPV6_MULTICAST_LOOP")
            } else {
                try option(Int32(IPPROTO_IP), IP_PKTINFO, 1, "IP_PKTINFO")
                try option(Int32(IPPROTO_IP), IP_MULTICAST_TTL, 255, "IP_MULTICAST_TTL")
                try option(Int32(IPPROTO_IP), IP_TTL, 255, "IP_TTL")
                try option(Int32(IPPROTO_IP), IP_MULTICAST_LOOP, 1, "IP_MULTICAST_LOOP")
            }
            let any = SocketAddress(bytes: [UInt8](repeating: 0, count: ipv6 ? 16 : 4), port: port)
            let bound = any.withSockaddr { bind(descriptor, $0, $1) }
            guard bound == 0 else { throw MDNSSocketError("bind to port \(port)", errno) }
            var local = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let named = withUnsafeMutablePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            if named == 0, let address = SocketAddress(storage: local) { self.port = address.port }
        } catch {
            close(descriptor)
            throw error
        }
    }

    deinit {
        close(descriptor)
    }

    private func option(_ level: Int32, _ name: Int32, _ value: Int32, _ label: String) throws(MDNSSocketError) {
        var value = value
        guard setsockopt(descriptor, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw MDNSSocketError("setsockopt \(label)", errno)
        }
    }

    /// Joins the mDNS group on `interface`.
    func join(interface: Int32) throws(MDNSSocketError) {
        guard !joined.contains(interface) else { return }
        try membership(interface: interface, join: true)
        joined.insert(interface)
    }

    /// Leaves the mDNS group on `interface` (which may be gone already).
    func leave(interface: Int32) {
        guard joined.remove(interface) != nil else { return }
        try? membership(interface: interface, join: false)
    }

    private func membership(interface: Int32, join: Bool) throws(MDNSSocketError) {
        let result: Int32
        if isIPv6 {
            var request = ipv6_mreq()
            withUnsafeMutableBytes(of: &request.ipv6mr_multiaddr) {
                $0.copyBytes(from: SocketAddress.group(ipv6: true, interface: 0).bytes)
            }
            request.ipv6mr_interface = UInt32(bitPattern: interface)
            result = setsockopt(
                descriptor, Int32(IPPROTO_IPV6), join ? IPV6_ADD_MEMBERSHIP : IPV6_DROP_MEMBERSHIP,
                &request, socklen_t(MemoryLayout<ipv6_mreq>.size))
        } else {
            var request = ip_mreqn()
            withUnsafeMutableBytes(of: &request.imr_multiaddr) { $0.copyBytes(from: [224, 0, 0, 251]) }
            request.imr_ifindex = interface
            result = setsockopt(
                descriptor, Int32(IPPROTO_IP), join ? IP_ADD_MEMBERSHIP : IP_DROP_MEMBERSHIP,
                &request, socklen_t(MemoryLayout<ip_mreqn>.size))
        }
        guard result == 0 else { throw MDNSSocketError(join ? "join the mDNS group" : "leave the mDNS group", errno) }
    }

    /// Sends `bytes` to `destination` out of `interface`. A host without a default route needs
    /// the interface named for multicast, so it is named for every send.
    func send(_ bytes: [UInt8], to destination: SocketAddress, interface: Int32) throws(MDNSSocketError) {
        let chosen: Int32
        if isIPv6 {
            var index = interface
            chosen = setsockopt(
                descriptor, Int32(IPPROTO_IPV6), IPV6_MULTICAST_IF, &index, socklen_t(MemoryLayout<Int32>.size))
        } else {
            var request = ip_mreqn()
            request.imr_ifindex = interface
            chosen = setsockopt(
                descriptor, Int32(IPPROTO_IP), IP_MULTICAST_IF, &request, socklen_t(MemoryLayout<ip_mreqn>.size))
        }
        guard chosen == 0 else { throw MDNSSocketError("choose interface \(interface)", errno) }
        var target = destination
        if isIPv6, target.scope == 0 { target.scope = UInt32(bitPattern: interface) }
        let sent = bytes.withUnsafeBytes { buffer in
            target.withSockaddr { sendto(descriptor, buffer.baseAddress, buffer.count, 0, $0, $1) }
        }
        guard sent == bytes.count else { throw MDNSSocketError("send to \(destination)", sent < 0 ? errno : EMSGSIZE) }
    }

    /// The next waiting datagram, or nil when none waits. Datagrams over 9000 bytes are read
    /// cut (and then fail to decode).
    func receive() -> Datagram? {
        var source = sockaddr_storage()
        let (count, controlLength): (Int, Int) = receiveBuffer.withUnsafeMutableBytes { data in
            controlBuffer.withUnsafeMutableBytes { control in
                withUnsafeMutablePointer(to: &source) { sourcePointer in
                    var vector = iovec(iov_base: data.baseAddress, iov_len: data.count)
                    return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                        var header = msghdr()
                        header.msg_name = UnsafeMutableRawPointer(sourcePointer)
                        header.msg_namelen = socklen_t(MemoryLayout<sockaddr_storage>.size)
                        header.msg_iov = vectorPointer
                        header.msg_iovlen = 1
                        header.msg_control = control.baseAddress
                        header.msg_controllen = control.count
                        let got = recvmsg(descriptor, &header, 0)
                        return (got, Int(header.msg_controllen))
                    }
                }
            }
        }
        guard count >= 0, let address = SocketAddress(storage: source) else { return nil }
        let interface = Self.arrivalInterface(
            controlBuffer, length: min(controlLength, controlBuffer.count), ipv6: isIPv6)
        return Datagram(
            bytes: Array(receiveBuffer[..<min(count, receiveBuffer.count)]), source: address, interface: interface)
    }

    /// Reused for every receive: one datagram of up to 9000 bytes, and its control messages.
    private var receiveBuffer = [UInt8](repeating: 0, count: DNSMessage.maximumSize + 1)
    private var controlBuffer = [UInt8](repeating: 0, count: 256)

    /// The interface index in the `IP_PKTINFO` / `IPV6_PKTINFO` control message; -1 without one.
    private static func arrivalInterface(_ control: [UInt8], length: Int, ipv6: Bool) -> Int32 {
        // struct cmsghdr { size_t cmsg_len; int cmsg_level; int cmsg_type; } then the data,
        // aligned to size_t; the next header follows the data, aligned the same way.
        let headerSize = MemoryLayout<Int>.size + 8
        var offset = 0
        return control.withUnsafeBytes { bytes in
            while offset + headerSize <= length {
                let cmsgLength = bytes.loadUnaligned(fromByteOffset: offset, as: Int.self)
                let level = bytes.loadUnaligned(fromByteOffset: offset + MemoryLayout<Int>.size, as: Int32.self)
                let type = bytes.loadUnaligned(fromByteOffset: offset + MemoryLayout<Int>.size + 4, as: Int32.self)
                guard cmsgLength >= headerSize, offset + cmsgLength <= length else { return -1 }
                let data = offset + headerSize
                if ipv6, level == Int32(IPPROTO_IPV6), type == IPV6_PKTINFO, cmsgLength - headerSize >= 20 {
                    // struct in6_pktinfo { struct in6_addr ipi6_addr; unsigned int ipi6_ifindex; }
                    return Int32(bitPattern: bytes.loadUnaligned(fromByteOffset: data + 16, as: UInt32.self))
                }
                if !ipv6, level == Int32(IPPROTO_IP), type == IP_PKTINFO, cmsgLength - headerSize >= 12 {
                    // struct in_pktinfo { int ipi_ifindex; struct in_addr ipi_spec_dst, ipi_addr; }
                    return bytes.loadUnaligned(fromByteOffset: data, as: Int32.self)
                }
                let step = (cmsgLength + MemoryLayout<Int>.size - 1) & ~(MemoryLayout<Int>.size - 1)
                offset += step
            }
            return -1
        }
    }
}

/// A socket call that failed: which, and the system's reason.
struct MDNSSocketError: Error, Sendable, CustomStringConvertible {
    var operation: String
    var code: Int32

    init(_ operation: String, _ code: Int32) {
        self.operation = operation
        self.code = code
    }

    var description: String { "\(operation): \(systemErrorMessage(code))" }
}
