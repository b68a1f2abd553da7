import CastDiscovery
@testable import CastScanCLI
import Testing

/// `watch --table`'s frames: from the top left, each line cut to the width and erased to its
/// end, no more lines than the height holds, hostile names escaped.
@Suite("Live table frames")
struct LiveTableTests {
    static func device(_ index: Int, name: String) throws -> CastDevice {
        try CastDevice(
            service: ResolvedService(
                instanceName: "D\(index)", hostName: "d\(index).local", port: 8009,
                addresses: [try #require(ServiceAddress("10.0.0.\(index + 1)"))],
                txt: ["id=\(index)abc", "fn=\(name)", "md=Chromecast", "ca=5", "st=0", "ve=05"]))
    }

    @Test("a frame: home, heading, table, each line cut to the width, the rest of the screen erased")
    func frame() throws {
        let devices = try (0..<3).map { try Self.device($0, name: "Device \($0)") }
        let frame = LiveTable.frame(
            devices: devices, states: nil, backend: "replay", size: .init(columns: 30, rows: 50), time: "12:00:00.000")
        #expect(frame.hasPrefix("\u{1B}[Hcast-scan watch: 3 devices"))
        #expect(frame.hasSuffix("\u{1B}[J"))
        let lines = frame.dropFirst(3).dropLast(3).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 2 + 4, "heading, blank, header, 3 rows: \(lines)")
        for line in lines {
            #expect(line.hasSuffix("\u{1B}[K"))
            #expect(DisplayWidth.width(of: line.dropLast(3)) <= 30, "\(line)")
        }
    }

    @Test("more lines than the terminal holds: the first ones and how many more")
    func height() throws {
        let devices = try (0..<20).map { try Self.device($0, name: "Device \($0)") }
        let frame = LiveTable.frame(
            devices: devices, states: nil, backend: "mdns", size: .init(columns: 200, rows: 10), time: "t")
        #expect(frame.components(separatedBy: "\n").count - 1 == 10)
        #expect(frame.contains("… 14 more lines"), "23 lines (heading, blank, header, 20 rows), 9 shown")
    }

    @Test("a hostile name is escaped; no raw control character but the frame's own sequences")
    func hostile() throws {
        let frame = LiveTable.frame(
            devices: [try Self.device(1, name: "Evil\u{1B}[2J\u{202E}TV")], states: nil, backend: "replay",
            size: .init(columns: 200, rows: 50), time: "t")
        #expect(frame.contains("Evil\\e[2J\\u{202E}TV"))
        let stripped = frame.replacingOccurrences(of: "\u{1B}[H", with: "").replacingOccurrences(
            of: "\u{1B}[K", with: ""
        )
        .replacingOccurrences(of: "\u{1B}[J", with: "")
        #expect(!stripped.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x202E })
    }

    @Test("no device yet: says so")
    func empty() {
        let frame = LiveTable.frame(
            devices: [], states: nil, backend: "replay", size: .init(columns: 80, rows: 24), time: "t")
        #expect(frame.contains("cast-scan watch: 0 devices") && frame.contains("No Cast device is listed yet."))
    }
}
