@testable import CastDiscoveryMDNS

/// A socket that opens nothing: it never has a datagram to read (the harness hands datagrams to
/// the querier itself), and appends what is sent from it to a log shared by every fake socket,
/// so the order of sends across sockets is kept.
final class FakeMDNSSocket: MDNSTransport {
    /// One datagram sent: from which local port, to where, out of which interface.
    struct Send {
        var port: UInt16
        var destination: SocketAddress
        var interface: Int32
        var bytes: [UInt8]
    }

    /// The sends of every fake socket, in order.
    final class Log {
        var sends: [Send] = []
    }

    let descriptor: Int32 = -1
    let port: UInt16
    private let log: Log
    private(set) var joined: Set<Int32> = []

    init(port: UInt16, log: Log) {
        self.port = port
        self.log = log
    }

    func receive() -> MDNSSocket.Datagram? { nil }

    func send(_ bytes: [UInt8], to destination: SocketAddress, interface: Int32) throws(MDNSSocketError) {
        log.sends.append(Send(port: port, destination: destination, interface: interface, bytes: bytes))
    }

    func join(interface: Int32) throws(MDNSSocketError) { joined.insert(interface) }

    func leave(interface: Int32) { joined.remove(interface) }
}
