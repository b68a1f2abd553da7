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
    /// Another process held the spool's lock longer than the wait allows: try again.
    case spoolBusy(path: String, reason: String)
    /// The collector URL is not an http or https URL with a host.
    case invalidCollector(url: String, reason: String)
    /// The collector URL holds a user name or password, which would show in process lists and
    /// shell histories.
    case credentialsInURL(url: String)
    /// The collector's credentials are not `user:password` on one line of UTF-8 text (`reason`
    /// says what they are); they are never shown.
    case invalidCredentials(reason: String)

    /// Whether trying again later may succeed (the spool was locked by another process).
    public var isTemporary: Bool {
        if case .spoolBusy = self { return true }
        return false
    }

    /// Whether the error protects something at a path (a refusal, not a failure).
    public var isRefusal: Bool {
        switch self {
        case .spoolNotADirectory, .spoolFileNotRegular: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .spoolNotADirectory(let path, let kind):
            "\(path): is \(kind), not a directory; refusing to use it as the spool"
        case .spoolFileNotRegular(let path, let kind): "\(path): is \(kind), not a regular file; refusing to write it"
        case .spoolUnusable(let path, let reason): "\(path): the event spool cannot be used: \(reason)"
        case .spoolFull(let path, let reason): "\(path): the disk is full: \(reason)"
        case .spoolBusy(let path, let reason): "\(path): the event spool is busy: \(reason); try again"
        case .invalidCollector(let url, let reason): "\(url): not a collector URL: \(reason)"
        case .credentialsInURL(let url):
            "\(url): the collector URL holds credentials; give them in the environment variable "
                + "\(EventCollector.credentialsVariable) (user:password) instead"
        case .invalidCredentials(let reason):
            "the collector credentials cannot be used: \(reason); give them as user:password on one line"
        }
    }
}
