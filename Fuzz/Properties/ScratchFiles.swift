#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Where the repository's `Fixtures/` are: `$CAST_FUZZ_FIXTURES`, else found from this file's
/// path (the fuzz targets and the tests are built from this tree).
public enum Fixtures {
    public static let directory: URL = {
        if let path = ProcessInfo.processInfo.environment["CAST_FUZZ_FIXTURES"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures", isDirectory: true)
    }()
}

/// Files for the parsers that read a path: one private directory per process, the input
/// written to a file in it; each call a file of its own name, so checks may run side by side.
enum ScratchFiles {
    /// The process's directory (`$TMPDIR/cast-fuzz.XXXXXX`), removed at exit.
    static let directory: String = {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/cast-fuzz.XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(made != nil, "cannot make a scratch directory under \(base)")
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The device fixtures a receiver file names (`../devices/x.json`) are found beside it.
        _ = symlink(Fixtures.directory.appendingPathComponent("devices").path, path + "/devices")
        mkdir(path + "/files", 0o700)
        atexit { ScratchFiles.removeAll() }
        return path
    }()

    /// A new path in the scratch directory's `files/` (nothing there yet): a random prefix, so
    /// that checks running side by side never meet.
    static func path(_ name: String) -> String {
        "\(directory)/files/\(String(UInt64.random(in: 0...UInt64.max), radix: 36))-\(name)"
    }

    /// Writes `bytes` to a new file named `name`, runs `body` with its path, then removes it.
    static func withFile<T, E: Error>(_ bytes: [UInt8], named name: String, _ body: (String) throws(E) -> T) throws(E)
        -> T
    {
        let path = path(name)
        precondition(write(bytes, to: path), "cannot write the scratch file \(path)")
        defer { remove(path) }
        return try body(path)
    }

    /// Writes `bytes` to a new file at `path`; false when it cannot.
    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var written = 0
        bytes.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = Glibc.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count <= 0 { break }
                written += count
            }
        }
        return written == bytes.count
    }

    /// The bytes of the regular file at `path`; nil when it cannot be read.
    static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 { return nil }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
        }
    }

    /// Removes a file or a directory tree under the scratch directory.
    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    private static func removeAll() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
