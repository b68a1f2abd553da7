import Testing
import CastDiscovery

@Suite("TXTRecord")
struct TXTRecordTests {
    /// Builds wire format from strings.
    static func wire(_ strings: [String]) -> [UInt8] {
        strings.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
    }

    @Test("a Cast receiver's record reads as expected")
    func castRecord() throws {
        let data = Self.wire([
            "id=406c2bcdd5995755059b5bb045326056", "cd=ABC", "rm=", "ve=05", "md=Chromecast",
            "ic=/setup/icon.png", "fn=Habitación principal", "ca=200709", "st=0", "bs=FA8FCA", "nf=1", "rs=",
        ])
        let record = TXTRecord(wireFormat: data)
        #expect(record.issues.isEmpty)
        #expect(record.entries.count == 12)
        #expect(record.string(forKey: "id") == "406c2bcdd5995755059b5bb045326056")
        #expect(record.string(forKey: "fn") == "Habitación principal")
        #expect(record.string(forKey: "rs") == "")
        #expect(record["ca"] == .bytes(Array("200709".utf8)))
        #expect(record.keys == ["id", "cd", "rm", "ve", "md", "ic", "fn", "ca", "st", "bs", "nf", "rs"])
        #expect(try record.wireFormat() == data)
    }

    @Test("boolean attribute versus empty value")
    func flagVersusEmpty() {
        let record: TXTRecord = ["flag", "empty="]
        #expect(record["flag"] == .flag)
        #expect(record.contains(key: "flag"))
        #expect(record.bytes(forKey: "flag") == nil)
        #expect(record.string(forKey: "flag") == nil)
        #expect(record["empty"] == .bytes([]))
        #expect(record.bytes(forKey: "empty") == [])
        #expect(record.string(forKey: "empty") == "")
        #expect(record["missing"] == nil)
        #expect(!record.contains(key: "missing"))
        #expect(record.string(forKey: "missing") == nil)
    }

    @Test("lookups are ASCII case-insensitive and the first occurrence wins; duplicates stay in entries")
    func caseInsensitiveFirstWins() {
        let record: TXTRecord = ["FN=first", "fn=second", "Fn", "other=1"]
        #expect(record.string(forKey: "fn") == "first")
        #expect(record.string(forKey: "FN") == "first")
        #expect(record.string(forKey: "fN") == "first")
        #expect(record.entries.map(\.bytes) == ["FN=first", "fn=second", "Fn", "other=1"].map { Array($0.utf8) })
        #expect(record.issues == [.duplicateKey(key: "fn", index: 1), .duplicateKey(key: "Fn", index: 2)])
        #expect(record.keys == ["FN", "other"])
    }

    @Test("a flag before a valued duplicate wins")
    func flagFirstWins() {
        let record: TXTRecord = ["st", "st=1"]
        #expect(record["st"] == .flag)
        #expect(record.string(forKey: "st") == nil)
    }

    @Test("non-ASCII keys compare exactly except for ASCII letters")
    func nonASCIIKeys() {
        let record: TXTRecord = ["Ключ=1", "KÉY=2"]
        #expect(record.string(forKey: "Ключ") == "1")
        #expect(record.string(forKey: "ключ") == nil)
        #expect(record.string(forKey: "kÉy") == "2")
        #expect(record.string(forKey: "kéy") == nil)
    }

    @Test("entries with an empty key are kept but never match")
    func emptyKey() throws {
        let record: TXTRecord = ["=value", "a=1"]
        #expect(record.entries.count == 2)
        #expect(record.issues == [.emptyKey(index: 0)])
        #expect(record[""] == nil)
        #expect(!record.contains(key: ""))
        #expect(record.keys == ["a"])
        #expect(try record.wireFormat() == Self.wire(["=value", "a=1"]))
    }

    @Test("values are opaque bytes; invalid UTF-8 is replaced, never dropped")
    func opaqueValues() {
        let record = TXTRecord(strings: [[0x6B, 0x3D, 0x00, 0xFF, 0x41]])
        #expect(record.bytes(forKey: "k") == [0x00, 0xFF, 0x41])
        #expect(record.string(forKey: "k") == "\u{0}\u{FFFD}A")
    }

    @Test("255-byte string encodes, 256 bytes is an error")
    func lengthLimit() throws {
        let max = TXTEntry(bytes: Array("k=".utf8) + [UInt8](repeating: 0x78, count: 253))
        #expect(max.bytes.count == 255)
        let encoded = try TXTRecord(entries: [max]).wireFormat()
        #expect(encoded.count == 256)
        #expect(encoded.first == 255)
        #expect(TXTRecord(wireFormat: encoded).entries == [max])

        let tooLong = TXTEntry(bytes: max.bytes + [0x78])
        #expect(throws: TXTRecordError.entryTooLong(index: 1, length: 256)) {
            try TXTRecord(entries: [TXTEntry("a=1"), tooLong]).wireFormat()
        }
    }

    @Test("an empty entry cannot be encoded")
    func emptyEntryError() {
        let record = TXTRecord(entries: [TXTEntry("a=1"), TXTEntry(bytes: [])])
        #expect(record.entries.count == 2)
        #expect(record.issues == [.emptyString(index: 1)])
        #expect(throws: TXTRecordError.emptyEntry(index: 1)) { try record.wireFormat() }
        #expect(TXTRecordError.emptyEntry(index: 1).description.contains("1"))
    }

    @Test("empty record: no bytes or a single zero byte, encoded as [0]")
    func emptyRecord() throws {
        for data in [[], [0]] as [[UInt8]] {
            let record = TXTRecord(wireFormat: data)
            #expect(record.entries.isEmpty)
            #expect(record.issues.isEmpty)
        }
        let empty: TXTRecord = []
        #expect(try empty.wireFormat() == [0])
        #expect(empty.keys.isEmpty)
        #expect(TXTRecord(wireFormat: [0]) == empty)
    }

    @Test("zero-length strings inside wire data are dropped and reported")
    func zeroLengthStrings() {
        let record = TXTRecord(wireFormat: [0] + Self.wire(["a=1"]) + [0, 0] + Self.wire(["b"]))
        #expect(record.entries.map(\.bytes) == [Array("a=1".utf8), Array("b".utf8)])
        #expect(record.issues == [.emptyString(index: 0), .emptyString(index: 2), .emptyString(index: 3)])
        let strings = TXTRecord(strings: [[], Array("a=1".utf8)])
        #expect(strings.entries == [TXTEntry("a=1")])
        #expect(strings.issues == [.emptyString(index: 0)])
    }

    /// Wire data for three strings: "id=1" (offset 0), "fn=Room" (offset 5), "st=0" (offset 13); 18 bytes.
    static let threeStrings = wire(["id=1", "fn=Room", "st=0"])

    @Test(
        "truncated wire data keeps earlier strings",
        arguments: [
            (1, 0, TXTRecordIssue.truncated(offset: 0, declaredLength: 4, available: 0)),
            (3, 0, .truncated(offset: 0, declaredLength: 4, available: 2)),
            (5, 1, nil),
            (6, 1, .truncated(offset: 5, declaredLength: 7, available: 0)),
            (12, 1, .truncated(offset: 5, declaredLength: 7, available: 6)),
            (13, 2, nil),
            (17, 2, .truncated(offset: 13, declaredLength: 4, available: 3)),
            (18, 3, nil),
        ] as [(Int, Int, TXTRecordIssue?)])
    func truncated(length: Int, keptCount: Int, issue: TXTRecordIssue?) {
        #expect(Self.threeStrings.count == 18)
        let record = TXTRecord(wireFormat: Array(Self.threeStrings.prefix(length)))
        let all = [TXTEntry("id=1"), TXTEntry("fn=Room"), TXTEntry("st=0")]
        #expect(record.entries == Array(all.prefix(keptCount)))
        #expect(record.issues == (issue.map { [$0] } ?? []))
    }

    @Test("a length byte beyond the data is reported with the bytes available")
    func truncatedLongLength() {
        let record = TXTRecord(wireFormat: [255, 0x61, 0x62])
        #expect(record.entries.isEmpty)
        #expect(record.issues == [.truncated(offset: 0, declaredLength: 255, available: 2)])
        #expect(record.issues[0].description.contains("offset 0"))
    }

    @Test("description escapes non-printable bytes and lists issues")
    func description() {
        let record = TXTRecord(strings: [Array("fn=é".utf8), [0x66, 0x6E, 0x0A]])
        #expect(record.description == #"["fn=\xC3\xA9", "fn\x0A"]"#)
        let duplicated: TXTRecord = ["a", "A"]
        #expect(duplicated.description.hasPrefix(#"["a", "A"] (issues: "#))
        #expect(duplicated.description.contains("\"A\""))
    }

    @Test("equal records compare equal and hash alike")
    func hashable() {
        let a: TXTRecord = ["a=1", "b"]
        let b = TXTRecord(wireFormat: Self.wire(["a=1", "b"]))
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        #expect(a != ["a=1", "c"])
    }
}
