import Foundation

/// Paths of `Fixtures/plists` and generators of hostile property lists.
enum PlistFixtures {
    /// The package's `Fixtures/plists` folder, found from this source file's path.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Checks
        .deletingLastPathComponent()  // CastSenderTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("Fixtures")
        .appendingPathComponent("plists")

    /// The path of fixture `name` (with its `.plist` extension).
    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    /// A fresh temporary directory, unique to the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("plist-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// An XML property list of `depth` nested arrays inside a dictionary.
    static func deepXML(depth: Int) -> Data {
        let open = String(repeating: "<array>", count: depth)
        let close = String(repeating: "</array>", count: depth)
        return Data(
            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict>"
                + "<key>Deep</key>\(open)\(close)</dict></plist>").utf8)
    }

    /// `xml` (UTF-8) as UTF-16 with its byte order mark, its declaration saying so: a form the
    /// decoder reads, in which `<array>` is not the bytes `<array`.
    static func utf16(_ xml: Data, bigEndian: Bool = true) -> Data {
        let text = String(decoding: xml, as: UTF8.self).replacingOccurrences(
            of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
        var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for unit in text.utf16 {
            let (high, low) = (UInt8(unit >> 8), UInt8(unit & 0xFF))
            bytes += bigEndian ? [high, low] : [low, high]
        }
        return Data(bytes)
    }

    /// A binary property list whose objects are built from `collections`: object `i` is an
    /// array of the given references; one extra last object is an empty array. Object 0 is the
    /// top. References are 2 bytes, offsets 4 bytes.
    static func binary(arrays collections: [[Int]]) -> Data {
        var body = Array("bplist00".utf8)
        var offsets: [Int] = []
        for refs in collections + [[]] {
            offsets.append(body.count)
            precondition(refs.count < 15)
            body.append(0xA0 | UInt8(refs.count))
            for ref in refs { body += [UInt8(ref >> 8), UInt8(ref & 0xFF)] }
        }
        let tableOffset = body.count
        for offset in offsets {
            body += [24, 16, 8, 0].map { UInt8((offset >> $0) & 0xFF) }
        }
        func bigEndian64(_ value: Int) -> [UInt8] {
            (0..<8).reversed().map { UInt8((value >> ($0 * 8)) & 0xFF) }
        }
        body += [0, 0, 0, 0, 0, 0, 4, 2]
        body += bigEndian64(offsets.count) + bigEndian64(0) + bigEndian64(tableOffset)
        return Data(body)
    }

    /// A binary "billion laughs": each of `levels` arrays holds the next one twice, so the
    /// small file expands to 2^levels values.
    static func binaryBomb(levels: Int) -> Data {
        binary(arrays: (0..<levels).map { [$0 + 1, $0 + 1] })
    }

    /// A binary property list of `depth` arrays, each holding the next.
    static func binaryChain(depth: Int) -> Data {
        binary(arrays: (0..<depth).map { [$0 + 1] })
    }

    /// A binary property list whose top array contains itself.
    static let binaryCycle = binary(arrays: [[1, 0]])
}
