import CastSender
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("InfoPlistCheck on unreadable and hostile input")
struct InfoPlistErrorTests {
    enum Input: Sendable, CustomTestStringConvertible {
        case fixture(String)
        case bytes(String, @Sendable () -> Data)
        var testDescription: String {
            switch self {
            case .fixture(let name): name
            case .bytes(let name, _): name
            }
        }
    }

    static let limit = InfoPlistCheck.maximumNestingDepth

    static let cases: [(Input, InfoPlistError)] = [
        (.fixture("not-a-plist.plist"), .notAPropertyList(reason: "")),
        (.fixture("truncated.plist"), .notAPropertyList(reason: "")),
        (.fixture("array-root.plist"), .notADictionary(actualType: "an array")),
        (.bytes("empty", { Data() }), .empty),
        (
            .bytes("string root", { Data("<plist><string>x</string></plist>".utf8) }),
            .notADictionary(actualType: "a string")
        ),
        (.bytes("deep XML", { PlistFixtures.deepXML(depth: limit) }), .tooDeeplyNested(limit: limit)),
        (
            .bytes("very deep XML", { PlistFixtures.deepXML(depth: 100_000) }),
            .tooDeeplyNested(limit: limit)
        ),
        // The depth is counted in the characters the decoder reads: UTF-16 ones too (before,
        // this crashed cast-scan: the decoder recursed past the stack).
        (
            .bytes("very deep XML in UTF-16", { PlistFixtures.utf16(PlistFixtures.deepXML(depth: 100_000)) }),
            .tooDeeplyNested(limit: limit)
        ),
        (
            .bytes(
                "deep XML in UTF-16, little-endian",
                { PlistFixtures.utf16(PlistFixtures.deepXML(depth: limit), bigEndian: false) }),
            .tooDeeplyNested(limit: limit)
        ),
        // Text that is not UTF-8 (or UTF-16 with its mark) is refused before the decoder, which
        // traps on invalid UTF-8 inside an <integer> (the info-plist fuzz target's finding).
        (
            .bytes(
                "invalid UTF-8 in an integer",
                { Data("<integer>\u{FF}>\n".utf8) + Data([0xFF, 0xFF, 0xFF]) + Data("x7</integer>".utf8) }),
            .notAPropertyList(reason: "")
        ),
        (
            .bytes(
                "invalid UTF-8 in a dictionary's integer",
                {
                    Data("<plist><dict><key>n</key><integer>".utf8) + Data([0xC3])
                        + Data("5</integer></dict></plist>".utf8)
                }),
            .notAPropertyList(reason: "")
        ),
        (
            .bytes(
                "a NUL character", { Data("<plist><dict><key>n</key><integer>5</integer>\u{0}</dict></plist>".utf8) }),
            .notAPropertyList(reason: "")
        ),
        (
            .bytes(
                "UTF-16 with a lone surrogate",
                {
                    PlistFixtures.utf16(Data("<plist><dict><key>k</key><string>".utf8)) + Data([0xD8, 0x00])
                        + PlistFixtures.utf16(Data("</string></dict></plist>".utf8)).dropFirst(2)
                }),
            .notAPropertyList(reason: "")
        ),
        (
            .bytes("UTF-16 of an odd length", { PlistFixtures.utf16(PlistFixtures.deepXML(depth: 1)) + Data([0x3C]) }),
            .notAPropertyList(reason: "")
        ),
        (
            .bytes("deep binary", { PlistFixtures.binaryChain(depth: limit + 1) }),
            .tooDeeplyNested(limit: limit)
        ),
        (
            .bytes("binary bomb", { PlistFixtures.binaryBomb(levels: 40) }),
            .tooManyObjects(limit: InfoPlistCheck.maximumObjectCount)
        ),
        (.bytes("binary cycle", { PlistFixtures.binaryCycle }), .notAPropertyList(reason: "")),
        (
            .bytes("binary garbage", { Data("bplist00".utf8) + Data(repeating: 0xFF, count: 40) }),
            .notAPropertyList(reason: "")
        ),
        (.bytes("binary, no trailer", { Data("bplist00".utf8) }), .notAPropertyList(reason: "")),
        (
            .bytes("random bytes", { Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }) }),
            .notAPropertyList(reason: "")
        ),
        (
            .bytes("over 8 MiB", { Data(repeating: 0x20, count: InfoPlistCheck.maximumSize + 1) }),
            .tooLarge(size: InfoPlistCheck.maximumSize + 1, limit: InfoPlistCheck.maximumSize)
        ),
    ]

    /// Compares errors by case, ignoring Foundation's wording of `notAPropertyList` reasons.
    static func sameCase(_ lhs: InfoPlistError, _ rhs: InfoPlistError) -> Bool {
        switch (lhs, rhs) {
        case (.notAPropertyList, .notAPropertyList): true
        default: lhs == rhs
        }
    }

    @Test("a clear error, never a crash", arguments: cases)
    func rejects(input: Input, expected: InfoPlistError) throws {
        let check = InfoPlistCheck()
        let result: Result<InfoPlistReport, InfoPlistError>
        switch input {
        case .fixture(let name):
            result = Result { () throws(InfoPlistError) in
                try check.check(fileAt: PlistFixtures.path(name))
            }
        case .bytes(_, let make):
            result = Result { () throws(InfoPlistError) in try check.check(data: make()) }
        }
        guard case .failure(let error) = result else {
            Issue.record("expected \(expected), got a report")
            return
        }
        #expect(Self.sameCase(error, expected), "got \(error)")
        #expect(!error.description.isEmpty)
    }

    @Test(
        "nesting just inside the limit is accepted",
        arguments: [
            PlistFixtures.deepXML(depth: limit - 1), PlistFixtures.binaryChain(depth: limit - 1),
            PlistFixtures.utf16(PlistFixtures.deepXML(depth: limit - 1)),
            PlistFixtures.utf16(PlistFixtures.deepXML(depth: limit - 1), bigEndian: false),
        ])
    func nestingInsideLimit(data: Data) throws {
        if data.starts(with: Array("bplist".utf8)) {
            // A binary top level here is an array, not a dictionary: the guard let it through.
            #expect(throws: InfoPlistError.notADictionary(actualType: "an array")) {
                try InfoPlistCheck().check(data: data)
            }
        } else {
            let report = try InfoPlistCheck().check(data: data)
            #expect(report.codes.contains(.missingBonjourServices))
        }
    }

    @Test("files: missing, a directory, a FIFO, over the size limit (checked before reading)")
    func files() throws {
        let directory = try PlistFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let check = InfoPlistCheck()

        let missing = directory.appendingPathComponent("missing.plist").path
        #expect {
            try check.check(fileAt: missing)
        } throws: { error in
            guard case InfoPlistError.unreadable(let path, _) = error else { return false }
            return path == missing
        }

        #expect(throws: InfoPlistError.unreadable(path: directory.path, reason: "is a directory, not a file")) {
            try check.check(fileAt: directory.path)
        }

        let fifo = directory.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: InfoPlistError.notARegularFile(path: fifo, kind: "a FIFO")) {
            try check.check(fileAt: fifo)
        }

        // A sparse 1 GiB file: rejected from its size, without reading it.
        let huge = directory.appendingPathComponent("huge.plist")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: Data("<".utf8)))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        #expect(throws: InfoPlistError.tooLarge(size: 1 << 30, limit: InfoPlistCheck.maximumSize)) {
            try check.check(fileAt: huge.path)
        }
    }

    @Test("error descriptions quote paths and reasons safely")
    func descriptions() {
        let error = InfoPlistError.unreadable(path: "/tmp/\u{1B}[2J.plist", reason: "gone")
        #expect(error.description == #"cannot read Info.plist "/tmp/\u{1B}[2J.plist": "gone""#)
        #expect(
            InfoPlistError.tooLarge(size: 9_000_000, limit: 8_388_608).description
                == "the Info.plist is too large (over 8388608 bytes); at most 8388608 bytes are read")
    }
}
