import Testing
@testable import CastDiscovery

@Suite("DNSSDName generated round trips")
struct DNSSDNameFuzzTests {
    @Test("escape then unescape gives the bytes back for 10,000 random labels")
    func escapeRoundTrip() throws {
        var generator = SeededGenerator(seed: 0xD15C_0BE7)
        for _ in 0..<10_000 {
            let label = generator.bytes(count: Int.random(in: 0...63, using: &generator))
            let escaped = DNSSDName.escape(label: label)
            #expect(escaped.utf8.allSatisfy { $0 >= 0x21 && $0 <= 0x7E }, "escaped form is printable ASCII")
            let back = try DNSSDName.unescape(escaped)
            #expect(back == label)
            if back != label { break }
            // A full name built from the label splits back into it.
            if label.isEmpty {
                #expect(throws: DNSSDNameError.emptyLabel(offset: 0)) {
                    try DNSSDName.splitLabels(escaped + "._googlecast._tcp.local.")
                }
            } else {
                let split = try DNSSDName.splitLabels(escaped + "._googlecast._tcp.local.")
                #expect(split.first == label)
                #expect(split.count == 4)
            }
        }
    }

    @Test("unescape then escape gives avahi's canonical form")
    func canonicalForm() throws {
        var generator = SeededGenerator(seed: 42)
        // Alphabet of fragments: plain characters, needless escapes, decimal escapes, UTF-8 text.
        let fragments = [
            "a", "Z", "0", "_", "-", " ", "é", "Ж", "\\.", "\\\\", "\\a", "\\ ", "\\032", "\\000", "\\255", "\\065",
            "%", "\\%",
        ]
        for _ in 0..<10_000 {
            let count = Int.random(in: 0...20, using: &generator)
            let text = (0..<count).map { _ in fragments.randomElement(using: &generator)! }.joined()
            let bytes = try DNSSDName.unescape(text)
            let canonical = DNSSDName.escape(label: bytes)
            // Canonical form is a fixed point and means the same bytes.
            #expect(try DNSSDName.unescape(canonical) == bytes)
            #expect(DNSSDName.escape(label: try DNSSDName.unescape(canonical)) == canonical)
        }
        #expect(DNSSDName.escape(label: try DNSSDName.unescape("\\a\\065\\ ")) == "aA\\032")
    }

    @Test("unescape never traps on random text")
    func randomText() {
        var generator = SeededGenerator(seed: 7)
        let alphabet: [Character] = ["\\", "\\", ".", "0", "1", "2", "5", "9", "a", " ", "é"]
        var errors = 0
        for _ in 0..<10_000 {
            let count = Int.random(in: 0...12, using: &generator)
            let text = String((0..<count).map { _ in alphabet.randomElement(using: &generator)! })
            do {
                _ = try DNSSDName.unescape(text)
                _ = try DNSSDName.splitLabels(text)
            } catch {
                errors += 1
                #expect(!error.description.isEmpty)
            }
        }
        #expect(errors > 0)
        #expect(errors < 10_000)
    }
}
