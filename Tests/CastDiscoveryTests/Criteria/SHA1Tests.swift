import Testing

@testable import CastDiscovery

/// SHA-1 against FIPS 180 vectors and values computed with Python's `hashlib`.
@Suite("SHA1")
struct SHA1Tests {
    /// FIPS 180 published examples (plus the well-known "quick brown fox" vector).
    @Test(
        "FIPS 180 vectors",
        arguments: [
            ("abc", "A9993E364706816ABA3E25717850C26C9CD0D89D"),
            ("", "DA39A3EE5E6B4B0D3255BFEF95601890AFD80709"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "84983E441C3BD26EBAAE4AA1F95129E5E54670F1"
            ),
            (
                "The quick brown fox jumps over the lazy dog",
                "2FD4E1C67A2D28FCED849EE1BB76E7391B93EB12"
            ),
        ])
    func publishedVectors(input: String, expected: String) {
        #expect(SHA1.hexDigest(input) == expected)
        #expect(SHA1.hexDigest(Array(input.utf8)) == expected)
    }

    @Test("one million 'a'")
    func oneMillionA() {
        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA1.hexDigest(bytes) == "34AA973CD4C4DAA4F61EEB2BDBAD27316534016F")
    }

    /// Lengths around the 55/56-byte padding split and the 64-byte block size, computed with
    /// `python3 -c 'import hashlib; print(hashlib.sha1(b"a"*n).hexdigest().upper())'`.
    @Test(
        "block-boundary lengths",
        arguments: [
            (55, "C1C8BBDC22796E28C0E15163D20899B65621D65A"),
            (56, "C2DB330F6083854C99D4B5BFB6E8F29F201BE699"),
            (63, "03F09F5B158A7A8CDAD920BDDC29B81C18A551F5"),
            (64, "0098BA824B5C16427BD7A1122A5A442A25EC644D"),
            (65, "11655326C708D70319BE2610E8A57D9A5B959D3B"),
            (119, "EE971065AAA017E0632A8CA6C77BB3BF8B1DFC56"),
            (120, "F34C1488385346A55709BA056DDD08280DD4C6D6"),
            (127, "89D95FA32ED44A7C610B7EE38517DDF57E0BB975"),
            (128, "AD5B3FDBCB526778C2839D2F151EA753995E26A0"),
            (129, "D96DEBF1BDCBC896E6C134EA76E8141F40D78536"),
        ])
    func blockBoundaries(length: Int, expected: String) {
        let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
        #expect(SHA1.hexDigest(bytes) == expected)
    }

    /// Every byte value 0...255 once: `hashlib.sha1(bytes(range(256)))`.
    @Test("all byte values")
    func allByteValues() {
        let bytes = (0...255).map { UInt8($0) }
        #expect(SHA1.hexDigest(bytes) == "4916D6BDB7F78E6803698CAB32D1586EA457DFC8")
    }

    /// A lazy, non-contiguous sequence takes the element-by-element path:
    /// `hashlib.sha1(bytes(i % 7 for i in range(1000)))`.
    @Test("non-contiguous sequence")
    func nonContiguousSequence() {
        let lazyBytes = (0..<1000).lazy.map { UInt8($0 % 7) }
        let expected = "AC0B9B52A3DD3B3CF78C0D6F7D075FC00CD2D852"
        #expect(SHA1.hexDigest(lazyBytes) == expected)
        #expect(SHA1.hexDigest(Array(lazyBytes)) == expected)
    }

    @Test("incremental updates equal one-shot hashing")
    func incrementalUpdates() {
        let message = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        var hasher = SHA1.Hasher()
        hasher.update(message[..<1])
        hasher.update(message[1..<30])
        hasher.update(message[30...])
        #expect(SHA1.hexString(hasher.finalize()) == "84983E441C3BD26EBAAE4AA1F95129E5E54670F1")
    }

    @Test("digest is 20 raw bytes")
    func rawDigest() {
        let digest = SHA1.hash("abc")
        #expect(digest.count == 20)
        #expect(Array(digest.prefix(4)) == [0xA9, 0x99, 0x3E, 0x36])
        #expect(digest.last == 0x9D)
    }

    /// Cast namespace subtype examples; the media one is the reference's captured value.
    @Test(
        "Cast namespaces",
        arguments: [
            ("urn:x-cast:com.google.cast.media", "9E5E7C8F47989526C9BCD95D24084F6F0B27C5ED"),
            ("urn:x-cast:com.google.cast.receiver", "0AAFDA3F6A9665253EB1F664141048125FF802A8"),
            ("urn:x-cast:com.exámple", "02769EF1FB40303874287532EA11135B798A9E32"),
        ])
    func castNamespaces(namespace: String, expected: String) {
        #expect(SHA1.hexDigest(namespace) == expected)
    }

    @Test("hex formatting is upper-case, two digits per byte")
    func hexFormatting() {
        #expect(SHA1.hexString([0x00, 0x0A, 0xAB, 0xFF]) == "000AABFF")
        #expect(SHA1.hexString([UInt8]()) == "")
    }
}
