import Testing
import CastDiscovery

@Suite("TXTRecord generated input")
struct TXTRecordFuzzTests {
    @Test("10,000 random byte arrays never trap and re-encode to the same entries")
    func randomWireData() throws {
        var generator = SeededGenerator(seed: 0x7E57_7A7A)
        var truncatedCount = 0
        var withEntries = 0
        for _ in 0..<10_000 {
            let data = generator.bytes(count: Int.random(in: 0...600, using: &generator))
            let record = TXTRecord(wireFormat: data)
            #expect(record.entries.allSatisfy { !$0.bytes.isEmpty && $0.bytes.count <= 255 })
            if record.issues.contains(where: { if case .truncated = $0 { true } else { false } }) {
                truncatedCount += 1
            }
            if !record.entries.isEmpty { withEntries += 1 }
            let encoded = try TXTRecord(entries: record.entries).wireFormat()
            let again = TXTRecord(wireFormat: encoded)
            #expect(again.entries == record.entries)
            #expect(!again.issues.contains { if case .truncated = $0 { true } else { false } })
            // Every input byte is accounted for: kept strings, zero-length strings, then the truncated tail.
            let emptyStrings = record.issues.filter { if case .emptyString = $0 { true } else { false } }.count
            let consumed = record.entries.reduce(0) { $0 + $1.bytes.count + 1 } + emptyStrings
            if case .truncated(let offset, let declaredLength, let available)? = record.issues.last {
                #expect(consumed == offset)
                #expect(available == data.count - offset - 1)
                #expect(declaredLength > available)
            } else if data != [0] {
                #expect(consumed == data.count)
            }
        }
        #expect(truncatedCount > 0)
        #expect(withEntries > 0)
    }

    @Test("generated entry lists round-trip through wire format")
    func entryListRoundTrip() throws {
        var generator = SeededGenerator(seed: 2024)
        let keys = ["id", "ID", "fn", "md", "ca", "st", "rs", "x", "Ключ", ""]
        for _ in 0..<2_000 {
            let count = Int.random(in: 0...20, using: &generator)
            let entries: [TXTEntry] = (0..<count).map { _ in
                let key = keys.randomElement(using: &generator)!
                let value: [UInt8]? =
                    Bool.random(using: &generator) && !key.isEmpty
                    ? nil
                    : generator.bytes(count: Int.random(in: 0...(250 - key.utf8.count), using: &generator))
                return TXTEntry(key: key, value: value)
            }
            let record = TXTRecord(entries: entries)
            let wire = try record.wireFormat()
            let decoded = TXTRecord(wireFormat: wire)
            #expect(decoded.entries == entries)
            #expect(decoded == record)
            // Lookups agree with a naive first-match search.
            for key in keys where !key.isEmpty {
                let expected = entries.first {
                    String(decoding: $0.key, as: UTF8.self).lowercased() == key.lowercased() && !$0.key.isEmpty
                }
                #expect(decoded[key] == expected.map { $0.value.map(TXTValue.bytes) ?? .flag })
            }
        }
    }
}
