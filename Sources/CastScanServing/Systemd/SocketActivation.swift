#if canImport(Glibc)
import Glibc
#endif

/// The listening sockets systemd (or `systemd-socket-activate`) passed to this process, by its
/// protocol (`sd_listen_fds(3)`): `LISTEN_PID` names this process, `LISTEN_FDS` counts the
/// descriptors, which start at 3.
public enum SocketActivation {
    /// The first descriptor passed.
    static let firstDescriptor: Int32 = 3
    /// The most sockets served.
    public static let maximumSockets = 64

    /// The passed sockets, each checked to be a listening TCP socket and made close-on-exec;
    /// empty when none were passed to this process (no `LISTEN_FDS`, or a `LISTEN_PID` of
    /// another process). `environment` and `processID` are this process's.
    public static func sockets(environment: [String: String], processID: Int32) throws(HTTPServerError) -> [Int32] {
        guard let countText = environment["LISTEN_FDS"] else { return [] }
        if let pidText = environment["LISTEN_PID"] {
            guard let pid = Int32(pidText), pid > 0 else {
                throw .badSocketActivation("LISTEN_PID is not a process id")
            }
            guard pid == processID else { return [] }
        }
        guard let count = Int(countText), count >= 0 else {
            throw .badSocketActivation("LISTEN_FDS is not a count")
        }
        guard count <= maximumSockets else {
            throw .badSocketActivation("\(count) sockets, more than \(maximumSockets)")
        }
        var sockets: [Int32] = []
        for offset in 0..<count {
            let descriptor = firstDescriptor + Int32(offset)
            try check(descriptor)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            sockets.append(descriptor)
        }
        return sockets
    }

    /// Refuses a descriptor that is not a listening stream socket of IPv4 or IPv6.
    private static func check(_ descriptor: Int32) throws(HTTPServerError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw .badSocketActivation("descriptor \(descriptor) is not a socket")
        }
        func option(_ name: Int32) -> Int32? {
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(descriptor, SOL_SOCKET, name, &value, &length) == 0 ? value : nil
        }
        guard option(SO_TYPE) == Int32(SOCK_STREAM.rawValue) else {
            throw .badSocketActivation("descriptor \(descriptor) is not a stream socket")
        }
        guard let domain = option(SO_DOMAIN), domain == AF_INET || domain == AF_INET6 else {
            throw .badSocketActivation("descriptor \(descriptor) is not an IPv4 or IPv6 socket")
        }
        guard option(SO_ACCEPTCONN) == 1 else {
            throw .badSocketActivation("descriptor \(descriptor) is not listening")
        }
    }
}
