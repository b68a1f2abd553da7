#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading an input file that may be missing, not a regular file, huge or unreadable, without
/// ever blocking on a FIFO, opening a device or reading more than a limit: the one way every
/// input file of the package (replays, scenarios, Info.plists, the sender's state) is read.
///
/// Symbolic links are followed, as every Unix tool does. The path is opened once, without
/// blocking and without becoming a controlling terminal, and what was opened is checked on that
/// descriptor before a byte is read: a FIFO, device or socket is refused, and there is no window
/// between a check and the open for one to be swapped in.
package enum BoundedFile {
    /// Why a file could not be read.
    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// Nothing is at the path (or a directory on the way is missing).
        case missing
        /// The path is a directory.
        case directory
        /// The path is a device, FIFO or socket.
        case notRegular(FileKind)
        /// The file is larger than the limit (its size, or at least limit + 1).
        case tooLarge(size: Int, limit: Int)
        /// The file exists but cannot be read; the system's reason.
        case unreadable(String)

        /// `no such file`, `is a FIFO, not a regular file`, ...: completes "PATH: ".
        package var description: String {
            switch self {
            case .missing: "no such file"
            case .directory: "is a directory, not a file"
            case .notRegular(let kind): "is \(kind), not a regular file"
            case .tooLarge(let size, let limit): "\(size) bytes, more than \(limit)"
            case .unreadable(let reason): "cannot be read (\(reason))"
            }
        }
    }

    /// The contents of the regular file at `path` (after symbolic links), at most `limit` bytes.
    package static func read(path: String, limit: Int) throws(Failure) -> Data {
        let descriptor = PathSyscall.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else {
            let code = errno
            throw code == ENOENT || code == ENOTDIR ? .missing : .unreadable(systemErrorMessage(code))
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(systemErrorMessage(errno)) }
        try check(info, limit: limit)
        return try readAll(descriptor, expected: Int(clamping: info.st_size), limit: limit)
    }

    /// Everything `descriptor` gives, refusing more than `limit` bytes. The file may have grown
    /// since it was measured: room for `expected` plus one byte first, never past the limit.
    private static func readAll(_ descriptor: Int32, expected: Int, limit: Int) throws(Failure) -> Data {
        var data = Data(count: min(limit, max(0, expected)) + 1)
        var count = 0
        while count < limit + 1 {
            if count == data.count { data.count = min(limit + 1, max(data.count * 2, 4096)) }
            let got = data.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got > 0 {
                count += got
            } else if got == 0 {
                break
            } else if errno != EINTR {
                throw .unreadable(systemErrorMessage(errno))
            }
        }
        if count > limit { throw .tooLarge(size: count, limit: limit) }
        data.count = count
        return data
    }

    private static func check(_ info: stat, limit: Int) throws(Failure) {
        switch FileKind(mode: info.st_mode) {
        case .regular: break
        case .directory: throw .directory
        case let kind: throw .notRegular(kind)
        }
        if info.st_size > limit { throw .tooLarge(size: Int(clamping: info.st_size), limit: limit) }
    }
}
