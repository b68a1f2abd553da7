import CastDiscovery
@testable import CastReceiverPublisher
import Foundation
import Testing

@Suite("Scripts of changes: one change a line, at the time it gives")
struct ReceiverScriptTests {
    static func parse(_ line: String) throws -> ReceiverChange? {
        do throws(ReceiverFileError) {
            return try ReceiverScript.change(fromLine: line)
        } catch {
            throw error
        }
    }

    static func message(_ line: String) -> String? {
        do throws(ReceiverFileError) {
            _ = try ReceiverScript.change(fromLine: line)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("every action, with and without a time; names keep their inner spaces")
    func actions() throws {
        #expect(
            try Self.parse("1.5 rename 406c2bcd Kitchen  TV (left)")
                == ReceiverChange(at: .milliseconds(1500), device: "406c2bcd", action: .rename("Kitchen  TV (left)")))
        #expect(
            try Self.parse("start-app Chromecast-1 YouTube Music")
                == ReceiverChange(device: "Chromecast-1", action: .startApp("YouTube Music")))
        #expect(try Self.parse("\t2 stop-app d ") == ReceiverChange(at: .seconds(2), device: "d", action: .stopApp))
        #expect(
            try Self.parse("3 set d rs=Netflix st=1")
                == ReceiverChange(
                    at: .seconds(3), device: "d",
                    action: .set([.init(key: "rs", value: "Netflix"), .init(key: "st", value: "1")])))
        #expect(try Self.parse("set d rs=") == ReceiverChange(device: "d", action: .set([.init(key: "rs", value: "")])))
        #expect(
            try Self.parse("volume d 0.3") == ReceiverChange(device: "d", action: .volume(level: 0.3, muted: false)))
        #expect(
            try Self.parse("4 volume d 1 muted")
                == ReceiverChange(at: .seconds(4), device: "d", action: .volume(level: 1, muted: true)))
        #expect(try Self.parse("0 withdraw d") == ReceiverChange(at: .zero, device: "d", action: .withdraw))
        #expect(try Self.parse("return d\r") == ReceiverChange(device: "d", action: .return))
        #expect(try Self.parse("") == nil)
        #expect(try Self.parse("   ") == nil)
        #expect(try Self.parse("# 1 rename d x") == nil)
    }

    @Test(
        "lines that cannot be understood say why",
        arguments: [
            ("jump d", "\"jump\" is not an action"),
            ("rename", "rename: no device"),
            ("rename d", "rename needs a name"),
            ("start-app d", "start-app needs"),
            ("stop-app d now", "stop-app takes no argument"),
            ("set d rs", "set: \"rs\" is not KEY=VALUE"),
            ("set d =x", "is not KEY=VALUE"),
            ("volume d", "volume needs a level"),
            ("volume d 1.5", "is not a level from 0 to 1"),
            ("volume d nan", "is not a level from 0 to 1"),
            ("volume d 0.5 loud", "only \"muted\" may come"),
            ("-1 withdraw d", "\"-1\" is not an action"),
            ("1e9 withdraw d", "is not a time in seconds"),
            ("nan withdraw d", "\"nan\" is not an action"),
            (".. withdraw d", "is not a time"),
            ("5", "a time with no action"),
            ("rename d bad\u{1B}[2Jname", "control or format character"),
            ("rename d \u{202E}evil", "control or format character"),
        ] as [(String, String)])
    func badLines(line: String, expected: String) throws {
        let message = try #require(Self.message(line))
        #expect(message.contains(expected), "\(message)")
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E })
    }

    @Test("a line over 4096 bytes is refused")
    func longLine() {
        #expect(Self.message("rename d " + String(repeating: "a", count: 4096))?.contains("longer than 4096") == true)
    }

    @Test("a file: times may stay or grow, never go back; errors name the line")
    func file() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("script-\(UUID().uuidString)").path
        try "# changes\n1 rename d A\nrename d B\n1 stop-app d\n\n3 withdraw d\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        let script = try ReceiverScript(path: path)
        #expect(script.changes.map(\.at) == [.seconds(1), nil, .seconds(1), .seconds(3)])
        try "# CRLF lines\r\n1 rename d A\r\n2 withdraw d\r\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(
            try ReceiverScript(path: path).changes == [
                ReceiverChange(at: .seconds(1), device: "d", action: .rename("A")),
                ReceiverChange(at: .seconds(2), device: "d", action: .withdraw),
            ])
        try "2 rename d A\n1 rename d B\n".write(toFile: path, atomically: true, encoding: .utf8)
        do throws(ReceiverFileError) {
            _ = try ReceiverScript(path: path)
            Issue.record("a time going back was read")
        } catch {
            #expect(error.message == "line 2: 1 s is earlier than the line before (2 s)")
        }
        try Data([0x31, 0x20, 0xFF, 0x0A]).write(to: URL(fileURLWithPath: path))
        do throws(ReceiverFileError) {
            _ = try ReceiverScript(path: path)
            Issue.record("bytes that are not UTF-8 were read")
        } catch {
            #expect(error.message == "not UTF-8 text")
        }
    }
}
