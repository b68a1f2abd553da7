import CastDiscovery
import CastReceiverPublisher
import Foundation
import Testing

@Suite("Device files: the lab's format, read into receivers, and every way one can be wrong")
struct ReceiverFileTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// A file holding `text` in a new directory, with `fixture.json` beside it when given.
    static func file(_ text: String, fixture: String? = nil) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "receiver-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if let fixture {
            try fixture.write(to: directory.appendingPathComponent("fixture.json"), atomically: true, encoding: .utf8)
        }
        let path = directory.appendingPathComponent("devices.json").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func error(_ text: String, fixture: String? = nil) throws -> String {
        let path = try file(text, fixture: fixture)
        do throws(ReceiverFileError) {
            _ = try ReceiverFile(path: path)
            Issue.record("read without an error")
            return ""
        } catch {
            #expect(error.path == path)
            return error.message
        }
    }

    @Test(
        "the lab's real-world network: every fixture's instance, port, subtypes and TXT, and the core reads each as its fixture expects"
    )
    func realWorld() throws {
        let file = try ReceiverFile(path: Self.fixtures.appendingPathComponent("lab/real-world.json").path)
        #expect(file.receivers.count == 7)
        let lab =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: Self.fixtures.appendingPathComponent("lab/real-world.json"))) as? [String: Any]
        let entries = try #require(lab?["devices"] as? [[String: String]])
        for (receiver, entry) in zip(file.receivers, entries) {
            let fixtureURL = Self.fixtures.appendingPathComponent("lab").appendingPathComponent(
                try #require(entry["fixture"]))
            let fixture = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: fixtureURL)) as? [String: Any])
            let service = try #require(fixture["service"] as? [String: Any])
            let expected = try #require(fixture["expected"] as? [String: Any])
            #expect(receiver.instanceName == service["instance"] as? String)
            #expect(Int(receiver.port) == service["port"] as? Int)
            #expect(receiver.appIDs == service["subtypes"] as? [String])
            #expect(receiver.txt.map { String(decoding: $0.bytes, as: UTF8.self) } == service["txt"] as? [String])
            let device = try CastDevice(
                service: ResolvedService(
                    instanceName: receiver.instanceName, hostName: "simulated.local", port: receiver.port,
                    addresses: [try #require(ServiceAddress("10.213.0.9", interfaceName: nil))],
                    txt: TXTRecord(entries: receiver.txt)))
            #expect(device.id == CastDeviceID(try #require(expected["deviceID"] as? String)))
            #expect(device.friendlyName == expected["friendlyName"] as? String)
            #expect(device.modelName == expected["model"] as? String)
            #expect(Int(device.capabilities.rawValue) == expected["capabilities"] as? Int)
        }
    }

    @Test("the other lab fixtures read too (the stacks' inline entries, hex TXT, wire TXT)")
    func otherLabFiles() throws {
        let stacks = try ReceiverFile(path: Self.fixtures.appendingPathComponent("lab/stacks.json").path)
        #expect(stacks.receivers.count == 10)
        #expect(stacks.receivers[7].instanceName == "Chromecast-Ultra-a1b2c3d4e5f60718293a4b5c6d7e8f90")
        let path = try Self.file(
            #"{"devices": [{"instance": "Hex-0a1b2c3d4e5f", "host": "h.local", "port": 8009, "txtHex": ["69643d30613162", "ff00"]},"#
                + #"{"instance": "Wire-0a1b2c3d4e5e", "host": "h.local", "port": 8009, "txtWireHex": "0369643d0001ff"}]}"#
        )
        let file = try ReceiverFile(path: path)
        #expect(file.receivers[0].txt.map(\.bytes) == [Array("id=0a1b".utf8), [0xFF, 0x00]])
        #expect(file.receivers[1].txt.map(\.bytes) == [Array("id=".utf8), [0xFF]])
    }

    @Test("typed devices: a random id when none is given, status, app IDs (with or without the underscore), groups")
    func typed() throws {
        let path = try Self.file(
            #"""
            {"devices": [
              {"name": "Kitchen", "model": "Google Nest Mini", "capabilities": 198660},
              {"name": "Den", "model": "Chromecast", "capabilities": 200709, "id": "406c2bcdd5995755059b5bb045326056",
               "status": "busy", "statusText": "YouTube", "appIDs": ["_233637DE", "CC1AD845"], "port": 8010, "rm": "8B09"},
              {"name": "Everywhere", "model": "Google Cast Group", "capabilities": 198692, "group": true}
            ]}
            """#)
        let receivers = try ReceiverFile(path: path).receivers
        #expect(receivers[0].id.count == 32 && receivers[0].instanceName == "Google-Nest-Mini-\(receivers[0].id)")
        #expect(
            receivers[1].value(of: "st") == "1" && receivers[1].value(of: "rs") == "YouTube"
                && receivers[1].value(of: "rm") == "8B09")
        #expect(receivers[1].appIDs == ["233637DE", "CC1AD845"] && receivers[1].port == 8010)
        #expect(
            receivers[2].instanceName.hasPrefix("Google-Cast-Group-") && receivers[2].id.count == 36
                && receivers[2].port >= 32_000)
    }

    @Test(
        "bad files say where and what",
        arguments: [
            (
                #"{"devices": [{"instance": "A-0a1b2c3d4e5f", "port": 8009, "txt": ["id=1"]}, {"instance": "B-0a1b2c3d4e5f", "port": 8009, "txt": ["id=1"]}]}"#,
                "devices[1]: the id \"1\" is also devices[0]'s"
            ),
            (
                #"{"devices": [{"name": "A", "model": "M", "capabilities": 5, "id": "0a1b2c3d4e5f"}, {"name": "B", "model": "M", "capabilities": 5, "id": "0A1B2C3D4E5F"}]}"#,
                "is also devices[0]'s"
            ),
            (
                #"{"devices": [{"instance": "X", "port": 8009, "txt": ["id=a"]}, {"instance": "x", "port": 8009, "txt": ["id=b"]}]}"#,
                "the instance name \"x\" is also devices[0]'s"
            ),
            (
                #"{"devices": [{"instance": "X", "port": 8009, "txt": ["fn=\#(String(repeating: "a", count: 300))"]}]}"#,
                "devices[0]: \"X\": the TXT string \"fn=aaaaaaaaaaaaaaaaaaaaa\" is 303 bytes; a TXT string holds 1 to 255"
            ),
            (#"{"devices": [{"instance": "X", "port": 70000}]}"#, "devices[0]: port: 70000 is not a port"),
            (#"{"devices": [{"instance": "X", "port": 0}]}"#, "port: 0 is not a port"),
            (
                #"{"devices": [{"instance": "X", "port": 8009, "txxt": []}]}"#,
                "devices[0].txxt: not a field of a lab entry"
            ),
            (
                #"{"devices": [{"name": "A", "model": "M", "capabilities": 5, "appIds": []}]}"#,
                "devices[0].appIds: not a field of a typed device"
            ),
            (
                #"{"devices": [{"name": "A", "model": "M", "capabilities": 5, "id": "nope"}]}"#,
                "id: \"nope\" is not 32 hex digits"
            ),
            (
                #"{"devices": [{"name": "A", "model": "M", "capabilities": 5, "status": "asleep"}]}"#,
                "status: \"asleep\" is neither"
            ),
            (#"{"devices": [{"name": "A", "model": "M", "capabilities": -1}]}"#, "a number is out of range"),
            (
                #"{"devices": [{"name": "A", "model": "M", "capabilities": 5, "appIDs": ["not an id"]}]}"#,
                "app ID \"not an id\""
            ),
            (#"{"devices": [{"instance": "X", "port": 8009, "txtHex": ["0g"]}]}"#, "txtHex[0]: not hex"),
            (#"{"devices": [{"instance": "X", "port": 8009, "txtWireHex": "05aa"}]}"#, "runs past the end"),
            (#"{"devices": [{"instance": "X\u0007", "port": 8009}]}"#, "control character"),
            (#"{"devices": [{"fixture": "missing.json"}]}"#, "devices[0]: fixture "),
            (#"{"devices": [{"fixture": "fixture.json"}]}"#, "devices[0]: fixture"),
            (#"{"devices": {}}"#, "devices: expected"),
            (#"{"devices": [}"#, "not JSON"),
            (#"[]"#, "expected"),
        ] as [(String, String)])
    func badFiles(text: String, expected: String) throws {
        let message = try Self.error(text, fixture: #"{"service": {"instance": "F", "port": "8009"}}"#)
        #expect(message.contains(expected), "\(message)")
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test("a missing file, a directory and a FIFO are refused without reading them")
    func notFiles() throws {
        for path in ["/nonexistent/devices.json", "/tmp"] {
            do throws(ReceiverFileError) {
                _ = try ReceiverFile(path: path)
                Issue.record("read \(path)")
            } catch {
                #expect(error.description.hasPrefix(path + ": "))
            }
        }
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("receiver-fifo-\(UUID().uuidString)")
            .path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        do throws(ReceiverFileError) {
            _ = try ReceiverFile(path: fifo)
            Issue.record("read a FIFO")
        } catch {
            #expect(error.message.contains("FIFO"))
        }
    }

    @Test("1000 devices are read; 1001 and 10,000 are refused with the limit")
    func limit() throws {
        func devices(_ count: Int) -> String {
            let entries = (0..<count).map { #"{"name": "D\#($0)", "model": "Chromecast", "capabilities": 5}"# }
            return #"{"devices": [\#(entries.joined(separator: ","))]}"#
        }
        #expect(try ReceiverFile(path: Self.file(devices(1000))).receivers.count == 1000)
        for count in [1001, 10_000] {
            #expect(try Self.error(devices(count)) == "\(count) devices; at most 1000 can be published at once")
        }
    }
}
