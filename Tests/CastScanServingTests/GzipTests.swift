import CastScanServing
import CastTestSupport
import Foundation
import Testing

@Suite("gzip: parts compressed apart make one member gzip reads whole")
struct GzipTests {
    @Test("kept and fresh parts, in any mix, decompress to the text in order")
    func mixed() throws {
        let kept = KeptText(String(repeating: "cast_device_up{unique_id=\"googlecast:abc\"} 1\n", count: 2000))
        let shapes: [[ResponseBody.Part]] = [
            [.fresh("only fresh\n")],
            [.kept(kept)],
            [.kept(kept), .fresh("a\n"), .fresh("b\n")],
            [.fresh("head\n"), .kept(kept), .fresh(""), .kept(KeptText("second kept\n")), .fresh("tail\n")],
            [.fresh("")],
            [],
        ]
        for parts in shapes {
            let body = ResponseBody(parts)
            let compressed = try #require(body.gzip())
            let (plain, status) = try GzipTestSupport.gunzip(compressed)
            #expect(status == 0, "\(parts.count) parts")
            #expect(Array(plain) == body.bytes)
        }
        // The kept part is compressed once, then reused: the two bodies share its bytes.
        let first = try #require(ResponseBody([.kept(kept), .fresh("1\n")]).gzip())
        #expect(first.count < kept.text.utf8.count / 20, "\(first.count) bytes for \(kept.text.utf8.count)")
    }

    @Test("a segment that is final must be last; the joined member's trailer counts every part")
    func joinRules() throws {
        let a = try #require(DeflateSegment(compressing: Array("a".utf8), final: true))
        let b = try #require(DeflateSegment(compressing: Array("b".utf8), final: false))
        #expect(GzipMember.join([a, b]) == nil)
        #expect(GzipMember.join([b]) == nil)
        #expect(GzipMember.join([]) == nil)
        let joined = try #require(GzipMember.join([b, a]))
        #expect(Array(try GzipTestSupport.gunzip(joined).0) == Array("ba".utf8))
        // ISIZE, the last four bytes: 2.
        #expect(Array(joined.suffix(4)) == [2, 0, 0, 0])
        #expect(DeflateSegment(compressing: [1], final: true, level: 0) == nil)
    }
}
