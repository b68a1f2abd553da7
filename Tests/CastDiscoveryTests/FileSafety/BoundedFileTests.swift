@testable import CastDiscovery
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("BoundedFile: reading input files without blocking or reading too much")
struct BoundedFileTests {
    @Test("regular files and links to them are read; the rest is refused without being opened")
    func kinds() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bounded-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("hello".utf8).write(to: URL(fileURLWithPath: root + "/file"))
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: "file")
        mkfifo(root + "/fifo", 0o644)
        #expect(try BoundedFile.read(path: root + "/file", limit: 10) == Data("hello".utf8))
        #expect(try BoundedFile.read(path: root + "/link", limit: 10) == Data("hello".utf8))
        #expect(try BoundedFile.read(path: root + "/file", limit: 5) == Data("hello".utf8))
        #expect(throws: BoundedFile.Failure.tooLarge(size: 5, limit: 4)) {
            try BoundedFile.read(path: root + "/file", limit: 4)
        }
        #expect(throws: BoundedFile.Failure.notRegular(.fifo)) { try BoundedFile.read(path: root + "/fifo", limit: 10) }
        #expect(throws: BoundedFile.Failure.notRegular(.characterDevice)) {
            try BoundedFile.read(path: "/dev/zero", limit: 10)
        }
        #expect(throws: BoundedFile.Failure.directory) { try BoundedFile.read(path: root, limit: 10) }
        #expect(throws: BoundedFile.Failure.missing) { try BoundedFile.read(path: root + "/nothing", limit: 10) }
        #expect(throws: BoundedFile.Failure.missing) { try BoundedFile.read(path: root + "/file/below", limit: 10) }
        #expect(try BoundedFile.read(path: root + "/file", limit: 10).count == 5)
    }
}
