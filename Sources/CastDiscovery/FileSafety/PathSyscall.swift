#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The system calls that take a path, each a thin wrapper that passes the path's bytes as
/// ``RawPath`` keeps them (a file name that is not UTF-8 reaches the system unchanged). They
/// return what the C call returns and leave `errno` as it set it.
package enum PathSyscall {
    package static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
        RawPath.withCString(path) { systemOpen($0, flags, mode) }
    }

    package static func lstat(_ path: String, _ info: inout stat) -> Int32 {
        RawPath.withCString(path) { systemLstat($0, &info) }
    }

    package static func stat(_ path: String, _ info: inout stat) -> Int32 {
        RawPath.withCString(path) { systemStat($0, &info) }
    }

    package static func rename(_ from: String, _ to: String) -> Int32 {
        RawPath.withCString(from) { from in RawPath.withCString(to) { systemRename(from, $0) } }
    }

    package static func link(_ from: String, _ to: String) -> Int32 {
        RawPath.withCString(from) { from in RawPath.withCString(to) { systemLink(from, $0) } }
    }

    package static func unlink(_ path: String) -> Int32 {
        RawPath.withCString(path) { systemUnlink($0) }
    }

    package static func mkdir(_ path: String, _ mode: mode_t) -> Int32 {
        RawPath.withCString(path) { systemMkdir($0, mode) }
    }

    /// The target of the symbolic link at `path`, as ``RawPath`` decodes it; nil on failure.
    package static func readlink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = RawPath.withCString(path) { systemReadlink($0, &buffer, buffer.count - 1) }
        guard length >= 0 else { return nil }
        return RawPath.decode(buffer[..<length].map { UInt8(bitPattern: $0) })
    }
}

private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}
private func systemLstat(_ path: UnsafePointer<CChar>, _ info: inout stat) -> Int32 { lstat(path, &info) }
private func systemStat(_ path: UnsafePointer<CChar>, _ info: inout stat) -> Int32 { stat(path, &info) }
private func systemRename(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 { rename(from, to) }
private func systemLink(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> Int32 { link(from, to) }
private func systemUnlink(_ path: UnsafePointer<CChar>) -> Int32 { unlink(path) }
private func systemMkdir(_ path: UnsafePointer<CChar>, _ mode: mode_t) -> Int32 { mkdir(path, mode) }
private func systemReadlink(_ path: UnsafePointer<CChar>, _ buffer: UnsafeMutablePointer<CChar>, _ size: Int) -> Int {
    readlink(path, buffer, size)
}
