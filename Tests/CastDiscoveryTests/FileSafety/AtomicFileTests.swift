@testable import CastDiscovery
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("AtomicFile: replacing only regular files, atomically")
struct AtomicFileTests {
    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func kind(_ path: String) -> FileKind? {
        var info = stat()
        return lstat(path, &info) == 0 ? FileKind(mode: info.st_mode) : nil
    }

    @Test("a missing file is created, with missing directories when asked; a regular one is replaced, mode kept")
    func createAndReplace() throws {
        let root = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/a/b/state.json"
        #expect(throws: AtomicFile.Failure.self) { try AtomicFile.write(Array("x".utf8), to: path) }
        try AtomicFile.write(Array("one".utf8), to: path, createDirectories: true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "one")
        chmod(path, 0o600)
        try AtomicFile.write(Array("two".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two")
        var info = stat()
        stat(path, &info)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/a/b") == ["state.json"])
    }

    @Test("a chain of links is followed; the links stay, the final target is replaced in its own directory")
    func links() throws {
        let root = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/real", withIntermediateDirectories: false)
        try Data("old".utf8).write(to: URL(fileURLWithPath: root + "/real/file"))
        try FileManager.default.createSymbolicLink(atPath: root + "/second", withDestinationPath: "real/file")
        try FileManager.default.createSymbolicLink(atPath: root + "/first", withDestinationPath: root + "/second")
        #expect(try AtomicFile.destination(of: root + "/first") == root + "/real/file")
        try AtomicFile.write(Array("new".utf8), to: root + "/first")
        #expect(Self.kind(root + "/first") == .symbolicLink)
        #expect(Self.kind(root + "/second") == .symbolicLink)
        #expect(try String(contentsOfFile: root + "/real/file", encoding: .utf8) == "new")
        // A dangling link creates its target, as a shell redirection does.
        try FileManager.default.createSymbolicLink(atPath: root + "/dangling", withDestinationPath: "real/created")
        try AtomicFile.write(Array("made".utf8), to: root + "/dangling")
        #expect(try String(contentsOfFile: root + "/real/created", encoding: .utf8) == "made")
    }

    @Test("a FIFO, a directory and a link loop are refused, and nothing is left behind")
    func refusals() throws {
        let root = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        mkfifo(root + "/fifo", 0o644)
        try FileManager.default.createSymbolicLink(atPath: root + "/to-fifo", withDestinationPath: "fifo")
        try FileManager.default.createDirectory(atPath: root + "/dir", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: root + "/loop", withDestinationPath: "loop")
        for (name, expected) in [("fifo", FileKind.fifo), ("to-fifo", .fifo), ("dir", .directory)] {
            do {
                try AtomicFile.write(Array("x".utf8), to: root + "/" + name)
                Issue.record("\(name) was written")
            } catch {
                #expect(
                    error == .notRegular(path: root + "/fifo", kind: expected)
                        || error == .notRegular(path: root + "/dir", kind: expected))
                #expect(error.isRefusal)
            }
        }
        #expect(throws: AtomicFile.Failure.self) { try AtomicFile.write([], to: root + "/loop") }
        #expect(Self.kind(root + "/fifo") == .fifo)
        #expect(Self.kind(root + "/dir") == .directory)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["dir", "fifo", "loop", "to-fifo"])
    }

    @Test("a full disk is a failure that names the step, and the original stays")
    func fullDisk() throws {
        // /dev/full is a device: refused before anything is written.
        #expect(throws: AtomicFile.Failure.notRegular(path: "/dev/full", kind: .characterDevice)) {
            try AtomicFile.write(Array("x".utf8), to: "/dev/full")
        }
    }
}
