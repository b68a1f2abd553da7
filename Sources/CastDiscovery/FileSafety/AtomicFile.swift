#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replacing a file's contents atomically, without ever replacing or writing anything that is
/// not a regular file: the one way the package writes a file (the sender's state, and every
/// later output file).
///
/// - A missing file is created; missing parent directories are created when asked.
/// - A symbolic link is followed (a chain of them too, up to 40), and its target is replaced in
///   the target's own directory: the link itself stays as it was.
/// - A regular file is replaced by writing a temporary file beside it, `fsync`ing it and renaming
///   it over the original, keeping the original's permissions (and owner, where allowed). A
///   reader sees the old contents or the new, never a mix, also after a crash or power loss.
/// - Anything else (a device, FIFO, socket or directory) is refused and left untouched.
package enum AtomicFile {
    /// Why a file was not written.
    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The path (or a link's target) is not a regular file; nothing was written.
        case notRegular(path: String, kind: FileKind)
        /// A system call failed; nothing at the path changed.
        case failed(path: String, operation: String, reason: String)

        /// Whether the refusal protects something at the path (rather than a system failure).
        package var isRefusal: Bool {
            if case .notRegular = self { return true }
            return false
        }

        /// What went wrong at `original`, the path the caller gave, without repeating it:
        /// `it is a FIFO, not a regular file`.
        package func reason(at original: String) -> String {
            switch self {
            case .notRegular(let path, let kind) where path == original: "it is \(kind), not a regular file"
            case .notRegular(let path, let kind):
                "it leads to \(SafeText.quoted(path, limit: 256)), which is \(kind), not a regular file"
            case .failed(let path, let operation, let reason) where path == original: "\(operation): \(reason)"
            case .failed(let path, let operation, let reason):
                "\(SafeText.quoted(path, limit: 256)): \(operation): \(reason)"
            }
        }

        package var description: String {
            switch self {
            case .notRegular(let path, let kind):
                "refusing to write \(SafeText.quoted(path, limit: 256)): it is \(kind), not a regular file (left untouched)"
            case .failed(let path, let operation, let reason):
                "cannot write \(SafeText.quoted(path, limit: 256)): \(operation): \(reason)"
            }
        }
    }

    /// The most symbolic links followed from one path.
    static let maximumLinks = 40

    /// Where writing to `path` would go: `path`, or the file its symbolic links lead to; throws
    /// when that is not a regular file or missing.
    package static func destination(of path: String) throws(Failure) -> String {
        var current = path
        for _ in 0...maximumLinks {
            var info = stat()
            guard PathSyscall.lstat(current, &info) == 0 else {
                let code = errno
                if code == ENOENT { return current }
                throw .failed(path: current, operation: "lstat", reason: systemErrorMessage(code))
            }
            switch FileKind(mode: info.st_mode) {
            case .regular:
                return current
            case .symbolicLink:
                current = try linkTarget(of: current)
            case let kind:
                throw .notRegular(path: current, kind: kind)
            }
        }
        throw .failed(path: path, operation: "following links", reason: systemErrorMessage(ELOOP))
    }

    /// Replaces the contents of the regular file at `path` (or of its link's target) with
    /// `bytes`, atomically; creates the file, and its missing parent directories when
    /// `createDirectories` is set.
    package static func write(_ bytes: [UInt8], to path: String, createDirectories: Bool = false) throws(Failure) {
        let target = try destination(of: path)
        let directory = parentDirectory(of: target)
        if createDirectories { try makeDirectories(directory) }
        var existing = stat()
        let exists = PathSyscall.lstat(target, &existing) == 0
        let mode: mode_t = exists ? existing.st_mode & 0o7777 : 0o644
        let temporary =
            directory + "/." + baseName(of: target) + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = PathSyscall.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        guard descriptor >= 0 else {
            throw .failed(path: target, operation: "creating a temporary file", reason: systemErrorMessage(errno))
        }
        var failure: Failure?
        if exists {
            _ = fchmod(descriptor, mode)
            _ = fchown(descriptor, existing.st_uid, existing.st_gid)  // allowed for root only
        }
        if let reason = writeAll(bytes, to: descriptor) {
            failure = .failed(path: target, operation: "writing", reason: reason)
        } else if fsync(descriptor) != 0 {
            failure = .failed(path: target, operation: "fsync", reason: systemErrorMessage(errno))
        }
        if close(descriptor) != 0, failure == nil {
            failure = .failed(path: target, operation: "close", reason: systemErrorMessage(errno))
        }
        if failure == nil {
            // The target may have been swapped for something else meanwhile: check again, as
            // late as possible, before the rename.
            var now = stat()
            if PathSyscall.lstat(target, &now) == 0, FileKind(mode: now.st_mode) != .regular {
                failure = .notRegular(path: target, kind: FileKind(mode: now.st_mode))
            } else if PathSyscall.rename(temporary, target) != 0 {
                failure = .failed(path: target, operation: "rename", reason: systemErrorMessage(errno))
            }
        }
        if let failure {
            _ = PathSyscall.unlink(temporary)
            throw failure
        }
        syncDirectory(directory)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                return systemErrorMessage(written < 0 ? errno : EIO)
            }
        }
        return nil
    }

    private static func linkTarget(of path: String) throws(Failure) -> String {
        guard let target = PathSyscall.readlink(path) else {
            throw .failed(path: path, operation: "readlink", reason: systemErrorMessage(errno))
        }
        return target.hasPrefix("/") ? target : parentDirectory(of: path) + "/" + target
    }

    /// Creates `directory` and its missing parents (new ones with `mode`); an existing directory
    /// (or a link to one) is fine, anything else in the way is refused and left alone.
    package static func makeDirectories(_ directory: String, mode: mode_t = 0o755) throws(Failure) {
        var info = stat()
        if PathSyscall.stat(directory, &info) == 0 {
            let kind = FileKind(mode: info.st_mode)
            if kind != .directory { throw .notRegular(path: directory, kind: kind) }
            return
        }
        let parent = parentDirectory(of: directory)
        if parent != directory { try makeDirectories(parent, mode: mode) }
        if PathSyscall.mkdir(directory, mode) != 0, errno != EEXIST {
            throw .failed(path: directory, operation: "creating the directory", reason: systemErrorMessage(errno))
        }
    }

    private static func syncDirectory(_ directory: String) {
        let descriptor = PathSyscall.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    static func baseName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
