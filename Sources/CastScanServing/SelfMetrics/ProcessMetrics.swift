import CastDiscovery
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The standard `process_*` families every Prometheus exporter serves about itself, read from
/// `/proc/self` as Prometheus' client libraries read them: CPU seconds, resident and virtual
/// memory, open and most descriptors, and the start time. A value that cannot be read is left
/// out, never guessed.
public enum ProcessMetrics {
    /// The families now, with `started` (the wall clock's time when the process began serving)
    /// as `process_start_time_seconds`.
    public static func families(started: Date) -> [MetricFamily] {
        var families: [MetricFamily] = []
        if let cpu = cpuSeconds() {
            families.append(
                MetricFamily(
                    "process_cpu_seconds", help: "Total user and system CPU time spent in seconds.", kind: .counter,
                    samples: [.init(value: cpu)]))
        }
        if let (virtual, resident) = memoryBytes() {
            families.append(
                MetricFamily(
                    "process_resident_memory_bytes", help: "Resident memory size in bytes.", kind: .gauge,
                    samples: [.init(value: resident)]))
            families.append(
                MetricFamily(
                    "process_virtual_memory_bytes", help: "Virtual memory size in bytes.", kind: .gauge,
                    samples: [.init(value: virtual)]))
        }
        if let open = openDescriptors() {
            families.append(
                MetricFamily(
                    "process_open_fds", help: "Number of open file descriptors.", kind: .gauge,
                    samples: [.init(value: Double(open))]))
        }
        var limit = rlimit()
        if getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max {
            families.append(
                MetricFamily(
                    "process_max_fds", help: "Maximum number of open file descriptors.", kind: .gauge,
                    samples: [.init(value: Double(limit.rlim_cur))]))
        }
        families.append(
            MetricFamily(
                "process_start_time_seconds", help: "Start time of the process since unix epoch in seconds.",
                kind: .gauge, samples: [.init(value: started.timeIntervalSince1970.rounded(.down))]))
        return families
    }

    /// User plus system time, from fields 14 and 15 of `/proc/self/stat` (after the command
    /// name, which may hold spaces and parentheses: counted from the last `)`).
    static func cpuSeconds() -> Double? {
        guard let text = read("/proc/self/stat"), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3): utime is field 14, stime 15.
        guard fields.count > 12, let user = UInt64(fields[11]), let system = UInt64(fields[12]) else { return nil }
        let ticks = sysconf(Int32(_SC_CLK_TCK))
        guard ticks > 0 else { return nil }
        let (total, overflow) = user.addingReportingOverflow(system)
        guard !overflow else { return nil }
        return Double(total) / Double(ticks)
    }

    /// Virtual and resident size in bytes, from `/proc/self/statm` (in pages).
    static func memoryBytes() -> (virtual: Double, resident: Double)? {
        guard let text = read("/proc/self/statm") else { return nil }
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        let page = sysconf(Int32(_SC_PAGESIZE))
        guard fields.count >= 2, let size = UInt64(fields[0]), let resident = UInt64(fields[1]), page > 0 else {
            return nil
        }
        return (Double(size) * Double(page), Double(resident) * Double(page))
    }

    /// The entries of `/proc/self/fd` (the directory's own descriptor not counted), at most a
    /// million read.
    static func openDescriptors() -> Int? {
        guard let directory = opendir("/proc/self/fd") else { return nil }
        defer { closedir(directory) }
        var count = 0
        while count <= 1_000_000, let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { $0.prefix { $0 != 0 } }
            if name.elementsEqual(".".utf8) || name.elementsEqual("..".utf8) { continue }
            count += 1
        }
        return max(0, count - 1)
    }

    private static func read(_ path: String) -> String? {
        guard let data = try? BoundedFile.read(path: path, limit: 64 * 1024) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
