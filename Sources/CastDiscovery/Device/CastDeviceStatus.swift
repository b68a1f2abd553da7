/// Whether a receiver is running an app (TXT key `st`), as the SDK's `GCKDeviceStatus`.
public enum CastDeviceStatus: Int, Sendable, Hashable, Codable, CustomStringConvertible {
    /// `st` is missing or not `0`/`1`.
    case unknown = -1
    /// `st=0`: no app is running.
    case idle = 0
    /// `st=1`: an app is running; senders may join it.
    case busy = 1

    /// The status an `st` value stands for.
    public init(txtValue: String?) {
        switch txtValue {
        case "0": self = .idle
        case "1": self = .busy
        default: self = .unknown
        }
    }

    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .idle: "idle"
        case .busy: "busy"
        }
    }
}
