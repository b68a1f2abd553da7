/// Why a server could not start.
public enum HTTPServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The listen address is not `ADDRESS:PORT` with a literal IPv4 or bracketed IPv6 address.
    case invalidListenAddress(String)
    /// GNU libmicrohttpd (libmicrohttpd12) is not installed.
    case libraryMissing
    /// The server did not start on that address: in use, not an address of this machine, or
    /// not permitted.
    case cannotListen(HTTPListenAddress, reason: String)
    /// The sockets systemd passed (`LISTEN_FDS`) cannot be served: not listening TCP sockets,
    /// or too many.
    case badSocketActivation(String)
    /// What the server needs (a thread, a pipe, a TLS context) could not be had.
    case cannotStart(String)

    public var description: String {
        switch self {
        case .invalidListenAddress(let text):
            "invalid listen address '\(text)': give ADDRESS:PORT, e.g. 127.0.0.1:9464 or [::]:9464"
        case .libraryMissing:
            "GNU libmicrohttpd is not installed (libmicrohttpd.so.12): apt-get install libmicrohttpd12"
        case .cannotListen(let address, let reason):
            "cannot listen on \(address): \(reason)"
        case .badSocketActivation(let reason):
            "socket activation (LISTEN_FDS): \(reason)"
        case .cannotStart(let reason):
            "cannot start the server: \(reason)"
        }
    }
}
