@testable import CastDiscoveryReporting
import Foundation
import Testing

@Suite("Spool files: set-aside names never replace a file; links on the way resolved")
struct SpoolFilesTests {
    @Test("two files set aside in one second, with names already taken: every file keeps its bytes")
    func setAsideNeverReplaces() throws {
        let directory = try SpoolDirectory()
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let now = Int(Date().timeIntervalSince1970)
        for second in now...(now + 1) {
            try Data("earlier \(second)".utf8).write(
                to: URL(fileURLWithPath: directory.database + ".damaged-\(second)"))
        }
        var moved: [String: Data] = [:]
        for run in 0..<3 {
            let bytes = Data("damaged \(run)".utf8)
            try bytes.write(to: URL(fileURLWithPath: directory.database))
            try Data("log \(run)".utf8).write(to: URL(fileURLWithPath: directory.database + "-wal"))
            let names = try SpoolFiles.moveAside(directory.database, label: "damaged")
            #expect(names.count == 2 && names[1] == names[0] + "-wal", "\(names)")
            moved[names[0]] = bytes
        }
        #expect(moved.count == 3, "\(moved.keys.sorted())")
        for (name, bytes) in moved { #expect(try Data(contentsOf: URL(fileURLWithPath: name)) == bytes) }
        for second in now...(now + 1) {
            #expect(
                try Data(contentsOf: URL(fileURLWithPath: directory.database + ".damaged-\(second)"))
                    == Data("earlier \(second)".utf8))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.database))
    }

    @Test("a rename without replacing: EEXIST when the name is taken, both files as they were")
    func renameWithoutReplacing() throws {
        let directory = try SpoolDirectory()
        try FileManager.default.createDirectory(atPath: directory.path, withIntermediateDirectories: true)
        let from = directory.path + "/from"
        let to = directory.path + "/to"
        try Data("from".utf8).write(to: URL(fileURLWithPath: from))
        try Data("to".utf8).write(to: URL(fileURLWithPath: to))
        #expect(SpoolFiles.renameWithoutReplacing(from, to: to) == EEXIST)
        #expect(try String(contentsOfFile: from, encoding: .utf8) == "from")
        #expect(try String(contentsOfFile: to, encoding: .utf8) == "to")
        #expect(SpoolFiles.renameWithoutReplacing(from, to: directory.path + "/free") == 0)
        #expect(try String(contentsOfFile: directory.path + "/free", encoding: .utf8) == "from")
        #expect(!FileManager.default.fileExists(atPath: from))
    }

    @Test("a spool directory reached through links works; the spool file itself may not be a link")
    func linkedDirectory() throws {
        let directory = try SpoolDirectory()
        let real = directory.path + "/real"
        let link = directory.path + "/link"
        try FileManager.default.createDirectory(atPath: real + "/spool", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        #expect(SpoolFiles.resolve(link + "/spool") == SpoolFiles.resolve(real + "/spool"))
        let spool = try EventSpool(directory: link + "/spool", limits: SpoolLimits())
        try spool.record(id: "e", body: Array("{}".utf8), at: 1)
        #expect(FileManager.default.fileExists(atPath: real + "/spool/" + EventSpool.fileName))
        #expect(try spool.status(now: 1).pending == 1)
    }
}
