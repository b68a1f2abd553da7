/// What the querier needs of a socket: to poll it, read its datagrams, send queries from it and
/// join the mDNS group on an interface. ``MDNSSocket`` is the real one; a test gives the querier
/// sockets of its own that open nothing and record what is sent.
protocol MDNSTransport: AnyObject {
    /// The descriptor to poll (a negative one is never ready).
    var descriptor: Int32 { get }
    /// The local port: 5353 for the shared listener, another for a legacy-unicast socket.
    var port: UInt16 { get }
    /// The next waiting datagram, or nil when none waits.
    func receive() -> MDNSSocket.Datagram?
    /// Sends `bytes` to `destination` out of `interface`.
    func send(_ bytes: [UInt8], to destination: SocketAddress, interface: Int32) throws(MDNSSocketError)
    /// Joins the mDNS group on `interface`.
    func join(interface: Int32) throws(MDNSSocketError)
    /// Leaves the mDNS group on `interface`.
    func leave(interface: Int32)
}

extension MDNSTransport {
    /// The most datagrams read from one socket per loop round, so a flood cannot starve the
    /// loop's timers.
    static var datagramsPerRound: Int { 256 }

    /// Hands the datagrams waiting now to `body`, at most ``datagramsPerRound`` of them;
    /// returns whether it stopped at that bound (more may wait).
    @discardableResult
    func drain(_ body: (MDNSSocket.Datagram) -> Void) -> Bool {
        var taken = 0
        while taken < Self.datagramsPerRound {
            guard let datagram = receive() else { return false }
            body(datagram)
            taken += 1
        }
        return true
    }
}
