#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The local time of day as `watch` prints it before each line: `HH:MM:SS.mmm`.
///
/// Local time comes from the C library (`TZ`, else `/etc/localtime`): FoundationEssentials
/// alone knows only UTC.
enum TimeOfDay {
    /// The time of day now.
    static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        var seconds = spec.tv_sec
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "--:--:--.---" }
        return two(parts.tm_hour) + ":" + two(parts.tm_min) + ":" + two(parts.tm_sec) + "."
            + three(Int32(spec.tv_nsec / 1_000_000))
    }

    private static func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }

    private static func three(_ value: Int32) -> String {
        value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
    }
}
