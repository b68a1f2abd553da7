#if canImport(Glibc)
import Glibc
#endif

/// A blocking HTTP/1.1 client on a raw socket, for testing the server: it sends exactly the
/// bytes given and reads until the server closes or `timeout` passes.
enum HTTPTestClient {
    struct Reply {
        var status: Int
        var head: String
        var body: String
    }

    /// Connects to 127.0.0.1:`port`; the descriptor, or -1.
    static func connect(port: UInt16) -> Int32 {
        // Closed on exec: a child another test spawns meanwhile must not hold the connection open
        // after the test closes it (the server would not see the close).
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { close(fd); return -1 }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// Sends `request` and reads the reply; nil when the connection failed or closed first.
    static func exchange(port: UInt16, _ request: [UInt8]) -> Reply? {
        let fd = connect(port: port)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }  // the server may answer (431) and close before taking it all
            sent += n
        }
        return read(fd)
    }

    /// `GET path` with `headers`.
    static func get(port: UInt16, _ path: String, method: String = "GET", headers: [String] = []) -> Reply? {
        let text =
            "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            + headers.map { $0 + "\r\n" }.joined() + "\r\n"
        return exchange(port: port, Array(text.utf8))
    }

    /// Whether `fd` has something to read (data or the server's close) within `milliseconds`;
    /// nil when poll fails. A signal to the test process does not shorten the wait.
    static func isReadable(_ fd: Int32, within milliseconds: Int) -> Bool? {
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        while true {
            let left = deadline - ContinuousClock.now
            let wait = Int32(max(0, (left / .milliseconds(1)).rounded(.up)))
            var readable = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let result = poll(&readable, 1, wait)
            if result < 0, errno == EINTR { continue }
            return result < 0 ? nil : result > 0
        }
    }

    /// Reads a reply until the server closes the connection.
    static func read(_ fd: Int32) -> Reply? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            // A signal to the test process (another test's child exiting) is not the server.
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            data += buffer[0..<n]
        }
        let separator: [UInt8] = [13, 10, 13, 10]
        guard data.count >= 4,
            let split = (0...(data.count - 4)).first(where: { Array(data[$0..<$0 + 4]) == separator })
        else { return nil }
        let head = String(decoding: data[..<split], as: UTF8.self)
        let parts = head.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
        return Reply(status: status, head: head, body: String(decoding: data[(split + 4)...], as: UTF8.self))
    }
}
