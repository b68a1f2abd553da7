internal import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// The service manager that started this process (systemd, with `Type=notify`): told when the
/// service is ready, what it is doing and when it stops.
public enum ServiceManager {
    /// What a notification came to.
    public enum Delivery: Sendable, Hashable {
        /// No service manager asked for notifications (`NOTIFY_SOCKET` is not set).
        case notAsked
        /// The service manager has it.
        case sent
        /// It could not be sent (libsystemd is missing, or the socket refused it).
        case failed(String)
    }

    private static let loaded: Bool = cast_sd_load()

    /// Whether a service manager asked for notifications.
    public static var isListening: Bool { getenv("NOTIFY_SOCKET") != nil }

    /// Sends `READY=1` with a status line.
    @discardableResult
    public static func ready(status: String) -> Delivery { notify("READY=1\nSTATUS=\(line(status))") }

    /// Sends `STOPPING=1`.
    @discardableResult
    public static func stopping() -> Delivery { notify("STOPPING=1") }

    /// Sends `state` (newline-separated `KEY=VALUE` assignments, as sd_notify(3) describes).
    public static func notify(_ state: String) -> Delivery {
        guard isListening else { return .notAsked }
        guard loaded else { return .failed("libsystemd.so.0 is not installed") }
        let result = cast_sd_notify(state)
        if result > 0 { return .sent }
        return result == 0 ? .notAsked : .failed(String(cString: strerror(-result)))
    }

    /// `text` on one line (a status is one assignment).
    private static func line(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
