/// Why events cannot be recorded or sent.
public enum EventReportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The spool path exists and is not a directory; it is left alone.
    case spoolNotADirectory(path: String, kind: String)
    /// A spool file exists and is not a regular file (a link, a FIFO...); it is left alone.
    case spoolFileNotRegular(path: String, kind: String)
    /// The spool cannot be opened or written.
    case spoolUnusable(path: String, reason: String)
    /// The disk holding the spool is full.
    case spoolFull(path: String, reason: String)
    /// The collector URL is not an http or https URL with a host.
    case invalidCollector(url: String, reason: String)
    /// The collector URL holds a user name or password, which would show in process lists and
    /// shell histories.
    case credentialsInURL(url: String)

    /// Whether the error protects something at a path (a refusal, not a failure).
    public var isRefusal: Bool {
        switch self {
        case .spoolNotADirectory, .spoolFileNotRegular: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .spoolNotADirectory(let path, let kind): "\(path): is \(kind), not a directory; refusing to use it as the spool"
        case .spoolFileNotRegular(let path, let kind): "\(path): is \(kind), not a regular file; refusing to write it"
        case .spoolUnusable(let path, let reason): "\(path): the event spool cannot be used: \(reason)"
        case .spoolFull(let path, let reason): "\(path): the disk is full: \(reason)"
        case .invalidCollector(let url, let reason): "\(url): not a collector URL: \(reason)"
        case .credentialsInURL(let url):
            "\(url): the collector URL holds credentials; give them in the environment variable "
                + "\(EventCollector.credentialsVariable) (user:password) instead"
        }
    }
}
