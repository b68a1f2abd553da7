import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The files of an event spool on disk: where the directory really is, which file is at a path,
/// and moving a file aside under a name that nothing holds yet.
enum SpoolFiles {
    /// Which file a path names: its device and inode.
    struct Identity: Sendable, Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// What `lstat` finds at a path.
    enum Found: Sendable, Hashable {
        /// Nothing (`ENOENT`, or a parent that is not a directory).
        case missing
        case file(Identity, FileKind, size: Int64)
        /// `lstat` failed otherwise (permissions, say): nothing can be told.
        case unknown(errno: Int32)
    }

    /// The files SQLite keeps beside a database, by their suffix: the write-ahead log, its
    /// index and the rollback journal.
    static let sidecarSuffixes = ["-wal", "-shm", "-journal"]

    static func lookUp(_ path: String) -> Found {
        var info = stat()
        guard PathSyscall.lstat(path, &info) == 0 else {
            let code = errno
            return code == ENOENT || code == ENOTDIR ? .missing : .unknown(errno: code)
        }
        return .file(
            Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)), FileKind(mode: info.st_mode),
            size: Int64(info.st_size))
    }

    /// `directory` with every symbolic link and `.` or `..` resolved (`realpath`), so SQLite,
    /// which refuses links anywhere in a path, can be given it; nil when it cannot be resolved.
    static func resolve(_ directory: String) -> String? {
        guard let resolved = RawPath.withCString(directory, { realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return RawPath.decode(
            UnsafeBufferPointer(start: resolved, count: strlen(resolved)).map { UInt8(bitPattern: $0) })
    }

    /// Moves the regular file `path` (and its SQLite sidecar files) to
    /// `path.LABEL-SECONDS`, or `path.LABEL-SECONDS.2` and on when that name is taken: an
    /// existing file is never replaced. Returns the new names of the files moved.
    static func moveAside(_ path: String, label: String) throws(EventReportError) -> [String] {
        let stamp = "\(path).\(label)-\(Int(Date().timeIntervalSince1970))"
        var moved: [String] = []
        var base: String?
        for suffix in [""] + sidecarSuffixes {
            let file = path + suffix
            switch lookUp(file) {
            case .missing: continue
            case .unknown(let code):
                throw .spoolUnusable(path: file, reason: "cannot set the file aside: \(systemErrorMessage(code))")
            case .file(_, let kind, _) where kind != .regular:
                throw .spoolFileNotRegular(path: file, kind: "\(kind)")
            case .file: break
            }
            // The database takes the first free name; its sidecars follow it, so SQLite would
            // find them beside it (a sidecar's name taken, which only another hand makes, gets
            // a counter of its own).
            let target = try moveToFreeName(file, first: base.map { $0 + suffix }) { counter in
                if let base { return "\(base)\(suffix).\(counter + 1)" }
                return (counter == 1 ? stamp : "\(stamp).\(counter)") + suffix
            }
            if base == nil { base = String(target.dropLast(suffix.count)) }
            moved.append(target)
        }
        if !moved.isEmpty { syncDirectory(containing: path) }
        return moved
    }

    /// Renames `file` to `first`, or else to the first of `candidate(1)`, `candidate(2)`...
    /// that is free; returns the name it took.
    private static func moveToFreeName(
        _ file: String, first: String?, candidate: (Int) -> String
    ) throws(EventReportError) -> String {
        if let first, renameWithoutReplacing(file, to: first) == 0 { return first }
        for counter in 1...10_000 {
            let target = candidate(counter)
            let code = renameWithoutReplacing(file, to: target)
            if code == 0 { return target }
            guard code == EEXIST else {
                throw .spoolUnusable(path: file, reason: "cannot set the file aside: \(systemErrorMessage(code))")
            }
        }
        throw .spoolUnusable(path: file, reason: "cannot set the file aside: \(systemErrorMessage(EEXIST))")
    }

    /// Renames `from` to `to` unless `to` exists; returns 0, or the `errno` (`EEXIST` when
    /// `to` is taken). `renameat2(RENAME_NOREPLACE)` where the file system has it, else a hard
    /// link and an unlink, else (a file system with neither) a check and a rename.
    static func renameWithoutReplacing(_ from: String, to: String) -> Int32 {
        if let renameat2 {
            let result = RawPath.withCString(from) { from in
                RawPath.withCString(to) { renameat2(AT_FDCWD, from, AT_FDCWD, $0, renameNoReplace) }
            }
            if result == 0 { return 0 }
            let code = errno
            guard code == EINVAL || code == ENOSYS || code == ENOTSUP else { return code }
        }
        if PathSyscall.link(from, to) == 0 {
            _ = PathSyscall.unlink(from)
            return 0
        }
        let code = errno
        guard code == EPERM || code == ENOTSUP || code == EOPNOTSUPP else { return code }
        guard case .missing = lookUp(to) else { return EEXIST }
        return PathSyscall.rename(from, to) == 0 ? 0 : errno
    }

    /// Flushes the entries of the directory holding `path` to disk (after a file was created,
    /// renamed or removed there).
    static func syncDirectory(containing path: String) {
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let descriptor = PathSyscall.open(directory.isEmpty ? "/" : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }

    /// The names in `directory` (without `.` and `..`); empty when it cannot be read.
    static func names(in directory: String) -> [String] {
        guard let stream = RawPath.withCString(directory, { opendir($0) }) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { buffer in
                RawPath.decode(buffer.prefix { $0 != 0 })
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// `RENAME_NOREPLACE` of `<linux/fs.h>`.
    private static let renameNoReplace: UInt32 = 1

    private typealias Renameat2 =
        @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// glibc's `renameat2`, which Swift's Glibc module does not declare; nil without it.
    private static let renameat2: Renameat2? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: Renameat2.self)
    }()
}
