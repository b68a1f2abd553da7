internal import CDNSSD

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One `DNSServiceRef` and the handler its replies go to: the only place this module calls
/// the dns_sd C API. Created, processed and closed on the session's thread only.
///
/// Each ref has a socket (``descriptor``) that becomes readable when replies wait;
/// ``process()`` then calls the handler with them, on the calling thread. On Linux each ref
/// also costs the compatibility library a thread and a D-Bus connection to avahi-daemon.
final class DNSSDServiceRef {
    /// What a ref reported.
    enum Reply {
        /// A browse result: an instance added or removed on an interface.
        case browse(added: Bool, interface: UInt32, name: String, domain: String)
        /// A resolve result: host, port (host byte order) and the TXT record's wire bytes.
        case resolve(interface: UInt32, host: String, port: UInt16, txt: [UInt8])
        /// A record answer (added or removed), with its data as on the wire.
        case record(added: Bool, interface: UInt32, type: UInt16, data: [UInt8])
        /// A registration is published under `name` (the one asked for, or the daemon's
        /// alternative after a conflict).
        case registered(name: String)
        /// The ref failed: a dns_sd error code.
        case failure(Int32)
    }

    /// The closure a ref's replies go to; kept alive by the ref (the C context pointer).
    final class Handler {
        let body: (Reply) -> Void
        init(_ body: @escaping (Reply) -> Void) { self.body = body }
    }

    private var ref: DNSServiceRef?
    private let handler: Unmanaged<Handler>
    /// The socket to poll for replies.
    let descriptor: Int32

    private init(ref: DNSServiceRef, handler: Unmanaged<Handler>) {
        self.ref = ref
        self.handler = handler
        descriptor = DNSServiceRefSockFD(ref)
    }

    deinit { close() }

    /// Creates a ref with `start`, which gets the out-pointer and the context; on failure the
    /// handler is released and the error thrown.
    private static func make(
        _ body: @escaping (Reply) -> Void,
        _ start: (UnsafeMutablePointer<DNSServiceRef?>, UnsafeMutableRawPointer) -> DNSServiceErrorType
    ) throws(DNSSDError) -> DNSSDServiceRef {
        let handler = Unmanaged.passRetained(Handler(body))
        var ref: DNSServiceRef?
        let status = start(&ref, handler.toOpaque())
        guard status == kDNSServiceErr_NoError, let ref else {
            handler.release()
            throw DNSSDError(code: status)
        }
        return DNSSDServiceRef(ref: ref, handler: handler)
    }

    /// `DNSServiceBrowse` for a registration type (`_googlecast._tcp`, or with a subtype
    /// `_googlecast._tcp,_CC1AD845`) on one interface (0: every interface).
    static func browse(
        _ registrationType: String, interface: UInt32, _ body: @escaping (Reply) -> Void
    ) throws(DNSSDError) -> DNSSDServiceRef {
        try make(body) { out, context in
            DNSServiceBrowse(out, 0, interface, registrationType, "local.", browseReply, context)
        }
    }

    /// `DNSServiceResolve` of one instance on one interface.
    static func resolve(
        name: String, registrationType: String, domain: String, interface: UInt32, _ body: @escaping (Reply) -> Void
    ) throws(DNSSDError) -> DNSSDServiceRef {
        try make(body) { out, context in
            DNSServiceResolve(out, 0, interface, name, registrationType, domain, resolveReply, context)
        }
    }

    /// `DNSServiceQueryRecord` for a name's records of one type (class IN) on one interface.
    static func queryRecord(
        name: String, type: UInt16, interface: UInt32, _ body: @escaping (Reply) -> Void
    ) throws(DNSSDError) -> DNSSDServiceRef {
        try make(body) { out, context in
            DNSServiceQueryRecord(out, 0, interface, name, type, UInt16(kDNSServiceClass_IN), recordReply, context)
        }
    }

    /// `DNSServiceRegister` of one instance: `registrationType` carries the subtypes
    /// (`_googlecast._tcp,_CC1AD845`), `port` in host byte order, `txt` the record's wire bytes;
    /// on this host's name, renamed by the daemon on a conflict.
    static func register(
        name: String, registrationType: String, interface: UInt32, port: UInt16, txt: [UInt8],
        _ body: @escaping (Reply) -> Void
    ) throws(DNSSDError) -> DNSSDServiceRef {
        guard let length = UInt16(exactly: txt.count) else {
            throw DNSSDError(code: DNSServiceErrorType(kDNSServiceErr_BadParam))
        }
        return try make(body) { out, context in
            txt.withUnsafeBytes { bytes in
                DNSServiceRegister(
                    out, 0, interface, name, registrationType, nil, nil, port.bigEndian,
                    length, length == 0 ? nil : bytes.baseAddress, registerReply, context)
            }
        }
    }

    /// `DNSServiceUpdateRecord` of a registration's TXT record (its primary record).
    func updateTXT(_ txt: [UInt8]) -> Int32 {
        guard let ref else { return Int32(kDNSServiceErr_BadReference) }
        guard let length = UInt16(exactly: txt.count) else { return Int32(kDNSServiceErr_BadParam) }
        return txt.withUnsafeBytes { bytes in
            DNSServiceUpdateRecord(ref, nil, 0, length, length == 0 ? nil : bytes.baseAddress, 0)
        }
    }

    #if canImport(Darwin)
    /// `DNSServiceGetAddrInfo` for one family (Apple platforms; the compatibility library has
    /// none). Answers come as ``Reply/record(added:interface:type:data:)`` with the address bytes.
    static func getAddrInfo(
        host: String, ipv6: Bool, interface: UInt32, _ body: @escaping (Reply) -> Void
    ) throws(DNSSDError) -> DNSSDServiceRef {
        try make(body) { out, context in
            let proto = DNSServiceProtocol(ipv6 ? kDNSServiceProtocol_IPv6 : kDNSServiceProtocol_IPv4)
            return DNSServiceGetAddrInfo(out, 0, interface, proto, host, addrInfoReply, context)
        }
    }
    #endif

    /// `DNSServiceProcessResult`: delivers the waiting replies to the handler. Returns the
    /// dns_sd error code (0 when all is well).
    func process() -> Int32 {
        guard let ref else { return Int32(kDNSServiceErr_BadReference) }
        return DNSServiceProcessResult(ref)
    }

    /// `DNSServiceRefDeallocate`; the handler goes with it. Safe to call twice.
    func close() {
        guard let ref else { return }
        self.ref = nil
        DNSServiceRefDeallocate(ref)
        handler.release()
    }

    /// Makes Avahi's allocations zeroed (Linux): the compatibility library leaves a new ref's
    /// other callback fields uninitialized and calls one on a daemon disconnect (shim.h).
    /// Process-wide, harmless to other Avahi users (the memory is only zeroed). Nothing to do
    /// on Apple platforms.
    static func prepareLibrary() {
        #if !canImport(Darwin)
        cast_discovery_zero_avahi_allocations()
        #endif
    }

    /// The record types the backend asks for.
    static let typeA = UInt16(kDNSServiceType_A)
    static let typeAAAA = UInt16(kDNSServiceType_AAAA)
    static let typeTXT = UInt16(kDNSServiceType_TXT)
}

// MARK: - The C callbacks (nonisolated, in a library file: they run on the session's thread)

private func handler(_ context: UnsafeMutableRawPointer?) -> DNSSDServiceRef.Handler? {
    context.map { Unmanaged<DNSSDServiceRef.Handler>.fromOpaque($0).takeUnretainedValue() }
}

private func string(_ pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self) } ?? ""
}

private let browseReply: DNSServiceBrowseReply = { _, flags, interface, error, name, _, domain, context in
    guard let handler = handler(context) else { return }
    guard error == kDNSServiceErr_NoError else { return handler.body(.failure(error)) }
    handler.body(
        .browse(
            added: flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0, interface: interface,
            name: string(name), domain: string(domain)))
}

private let resolveReply: DNSServiceResolveReply = { _, _, interface, error, _, host, port, txtLength, txt, context in
    guard let handler = handler(context) else { return }
    guard error == kDNSServiceErr_NoError else { return handler.body(.failure(error)) }
    let bytes = txt.map { Array(UnsafeBufferPointer(start: $0, count: Int(txtLength))) } ?? []
    // The port comes in network byte order.
    handler.body(.resolve(interface: interface, host: string(host), port: UInt16(bigEndian: port), txt: bytes))
}

private let recordReply: DNSServiceQueryRecordReply = {
    _, flags, interface, error, _, type, _, length, data, _, context in
    guard let handler = handler(context) else { return }
    guard error == kDNSServiceErr_NoError else { return handler.body(.failure(error)) }
    let bytes = data.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(length))) } ?? []
    handler.body(
        .record(added: flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0, interface: interface, type: type, data: bytes)
    )
}

private let registerReply: DNSServiceRegisterReply = { _, _, error, name, _, _, context in
    guard let handler = handler(context) else { return }
    guard error == kDNSServiceErr_NoError else { return handler.body(.failure(error)) }
    handler.body(.registered(name: string(name)))
}

#if canImport(Darwin)
private let addrInfoReply: DNSServiceGetAddrInfoReply = { _, flags, interface, error, _, address, _, context in
    guard let handler = handler(context) else { return }
    guard error == DNSServiceErrorType(kDNSServiceErr_NoError), let address else {
        return handler.body(.failure(error))
    }
    var bytes: [UInt8] = []
    var type = DNSSDServiceRef.typeA
    if address.pointee.sa_family == sa_family_t(AF_INET) {
        bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
            withUnsafeBytes(of: $0.pointee.sin_addr) { Array($0) }
        }
    } else if address.pointee.sa_family == sa_family_t(AF_INET6) {
        type = DNSSDServiceRef.typeAAAA
        bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
            withUnsafeBytes(of: $0.pointee.sin6_addr) { Array($0) }
        }
    }
    handler.body(
        .record(added: flags & DNSServiceFlags(kDNSServiceFlagsAdd) != 0, interface: interface, type: type, data: bytes)
    )
}
#endif
