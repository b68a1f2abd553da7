import CastDiscovery
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One sender at a time on a spool, across processes: an exclusive `flock(2)` on the file
/// `send.lock` in the spool's directory, held for one send pass. Two processes that send from
/// one spool (two watches, or `report send` during a watch) would otherwise read and POST the
/// same oldest events. The kernel releases the lock when its holder dies, even by `kill -9`.
///
/// The file is a regular file created here (mode 0600) and opened without following a link;
/// anything else at its path is refused and left alone. A lock file that was removed or
/// replaced after it was opened is opened again, so every sender locks the same file.
final class SpoolSendLock {
    /// The lock file's name in the spool directory.
    static let fileName = "send.lock"

    let path: String
    private var descriptor: Int32 = -1
    private var held = false

    /// Opens (creating when missing) the lock file of the spool in `directory`.
    ///
    /// - Throws: ``EventReportError/spoolFileNotRegular(path:kind:)`` for a path that is not a
    ///   regular file, ``EventReportError/spoolUnusable(path:reason:)`` when it cannot be opened.
    init(directory: String) throws(EventReportError) {
        path = directory + "/" + Self.fileName
        descriptor = try Self.open(path)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Takes the lock if no other process holds it, without waiting; true when held.
    func tryLock() throws(EventReportError) -> Bool {
        if held { return true }
        // At most a few rounds: the file may be replaced between the lock and the check.
        for _ in 0..<3 {
            if descriptor < 0 { descriptor = try Self.open(path) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                if errno == EWOULDBLOCK || errno == EINTR { return false }
                throw .spoolUnusable(path: path, reason: "cannot lock: \(systemErrorMessage(errno))")
            }
            var opened = stat()
            var named = stat()
            if PathSyscall.lstat(path, &named) == 0, fstat(descriptor, &opened) == 0,
                opened.st_dev == named.st_dev, opened.st_ino == named.st_ino
            {
                held = true
                return true
            }
            // Locked a file that is no longer the one at the path: lock the one there instead,
            // unless none can be opened (the directory is gone): then no other sender can
            // find one either, and this lock serves.
            guard let replacement = try? Self.open(path) else {
                held = true
                return true
            }
            close(descriptor)
            descriptor = replacement
        }
        return false
    }

    /// Releases the lock (the file stays, for the next sender).
    func unlock() {
        guard held else { return }
        held = false
        if descriptor >= 0 { flock(descriptor, LOCK_UN) }
    }

    private static func open(_ path: String) throws(EventReportError) -> Int32 {
        // O_NONBLOCK: a FIFO put at the path must not block the open; it is refused below.
        let descriptor = PathSyscall.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            var info = stat()
            if PathSyscall.lstat(path, &info) == 0, FileKind(mode: info.st_mode) != .regular {
                throw .spoolFileNotRegular(path: path, kind: "\(FileKind(mode: info.st_mode))")
            }
            throw .spoolUnusable(path: path, reason: "cannot open the send lock: \(systemErrorMessage(code))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, FileKind(mode: info.st_mode) == .regular else {
            close(descriptor)
            throw .spoolFileNotRegular(path: path, kind: "\(FileKind(mode: info.st_mode))")
        }
        return descriptor
    }
}
