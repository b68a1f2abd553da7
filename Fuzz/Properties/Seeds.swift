#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One input of a corpus: where it came from, and its bytes.
public struct FuzzInput: Sendable, Hashable {
    /// `Fixtures/…` path, with what was taken from it (`#vectors[3]`).
    public var name: String
    public var bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}

/// The inputs of each target made from `Fixtures/`: the seed corpus libFuzzer starts from
/// (`Scripts/fuzz run`) and `swift test` checks, and the findings (`Fixtures/fuzz/<target>/`).
///
/// Seeds come from the fixtures of each parser (captured packets, real TXT sets, the Cast
/// message vectors, the lab's receiver statuses, plists, scenarios, replays, device files), and
/// for every target from the files of `Fixtures/seeds/<target>/` (hand-written inputs for the
/// parsers no fixture feeds: scripts, state files, collector URLs, requests, device-authentication
/// messages and revocation lists).
public enum Seeds {
    /// The seed corpus of `target`.
    public static func seeds(for target: FuzzTarget) -> [FuzzInput] {
        var inputs = files(in: "seeds/\(target.rawValue)")
        switch target {
        case .dnsMessage:
            for (name, json) in jsonFiles(in: "packets") {
                if let hex = json["hex"]?.string, let bytes = bytes(hex: hex) {
                    inputs.append(FuzzInput(name: name, bytes: bytes))
                }
            }
        case .txtRecord:
            inputs += txtWires().map { FuzzInput(name: $0.name, bytes: $0.wire) }
        case .castFrame:
            var all: [UInt8] = [0]
            for (name, json) in jsonFiles(in: "cast-channel") {
                for (index, vector) in (json["vectors"]?.array ?? []).enumerated() {
                    guard let hex = vector["bytes"]?.string, let body = bytes(hex: hex) else { continue }
                    let frame = lengthPrefix(body.count) + body
                    // The first byte cuts the stream into reads: 64 whole, 3 mid-frame.
                    inputs.append(
                        FuzzInput(name: "\(name)#vectors[\(index)]", bytes: [UInt8(index % 2 == 0 ? 63 : 2)] + frame))
                    if index < 8 { all += frame }
                }
            }
            inputs.append(FuzzInput(name: "cast-channel/cast-message-vectors.json#frames[0..<8]", bytes: all))
        case .receiverStatus:
            for (name, json) in jsonFiles(in: "lab") {
                for (index, device) in (json["devices"]?.array ?? []).enumerated() {
                    guard let status = device["receiver"]?["status"] else { continue }
                    let text = "{\"type\":\"RECEIVER_STATUS\",\"requestId\":1,\"status\":\(status.json)}"
                    inputs.append(FuzzInput(name: "\(name)#devices[\(index)].receiver.status", bytes: Array(text.utf8)))
                }
            }
        case .infoPlist:
            inputs += files(in: "plists")
        case .senderScenario:
            inputs += files(in: "scenarios")
        case .receiverFile:
            inputs += files(in: "lab") + files(in: "publish").filter { $0.name.hasSuffix(".json") }
        case .replay:
            inputs += files(in: "replay")
        case .httpRequest:
            // Each request head with a device's TXT record after it (the fleet's extra device).
            let wires = txtWires()
            inputs = inputs.enumerated().map { index, head in
                guard !wires.isEmpty else { return head }
                let wire = wires[index % wires.count]
                return FuzzInput(name: "\(head.name)+\(wire.name)", bytes: head.bytes + wire.wire)
            }
        case .stateFile, .receiverScript, .reportURL, .deviceAuth:
            break
        }
        return inputs
    }

    /// What libFuzzer found for `target` and was kept, minimised: `Fixtures/fuzz/<target>/`
    /// but its `README.md` and `.gitkeep`.
    public static func findings(for target: FuzzTarget) -> [FuzzInput] {
        files(in: "fuzz/\(target.rawValue)").filter {
            !$0.name.hasSuffix("/README.md") && !$0.name.hasSuffix("/.gitkeep")
        }
    }

    /// Whether `Fixtures/fuzz/<target>/` exists (it must, even empty).
    public static func findingsDirectoryExists(for target: FuzzTarget) -> Bool {
        let path = Fixtures.directory.appendingPathComponent("fuzz/\(target.rawValue)").path
        return (try? FileManager.default.contentsOfDirectory(atPath: path)) != nil
    }

    // MARK: - Reading the fixtures

    /// Every regular file of `Fixtures/<directory>`, sorted by name.
    private static func files(in directory: String) -> [FuzzInput] {
        let url = Fixtures.directory.appendingPathComponent(directory)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.sorted().compactMap { name in
            // Read here, not with FileManager.contents(atPath:), which leaks a buffer (under
            // LeakSanitizer) for an empty file such as a .gitkeep.
            guard let bytes = ScratchFiles.read(url.appendingPathComponent(name).path) else { return nil }
            return FuzzInput(name: "\(directory)/\(name)", bytes: bytes)
        }
    }

    private static func jsonFiles(in directory: String) -> [(String, JSONValue)] {
        files(in: directory).filter { $0.name.hasSuffix(".json") }.compactMap { file in
            (try? JSONDecoder().decode(JSONValue.self, from: Data(file.bytes))).map { (file.name, $0) }
        }
    }

    /// The TXT records of the device fixtures and of the lab's and publish's inline devices, in
    /// wire format.
    private static func txtWires() -> [(name: String, wire: [UInt8])] {
        var wires: [(name: String, wire: [UInt8])] = []
        func add(_ name: String, _ service: JSONValue?) {
            guard let service else { return }
            if let hex = service["txtWireHex"]?.string, let wire = bytes(hex: hex) {
                wires.append((name, wire))
            } else if let strings = service["txtHex"]?.array?.compactMap({ $0.string.flatMap(bytes(hex:)) }) {
                wires.append((name, wire(strings)))
            } else if let strings = service["txt"]?.array?.compactMap(\.string) {
                wires.append((name, wire(strings.map { Array($0.utf8) })))
            }
        }
        for (name, json) in jsonFiles(in: "devices") { add(name, json["service"]) }
        for (name, json) in jsonFiles(in: "lab") + jsonFiles(in: "publish") {
            for (index, device) in (json["devices"]?.array ?? []).enumerated() {
                add("\(name)#devices[\(index)]", device)
            }
        }
        return wires
    }

    private static func wire(_ strings: [[UInt8]]) -> [UInt8] {
        strings.flatMap { [UInt8(min($0.count, 255))] + $0.prefix(255) }
    }

    private static func lengthPrefix(_ count: Int) -> [UInt8] {
        [UInt8(count >> 24 & 0xFF), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF), UInt8(count & 0xFF)]
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let byte = UInt8(String(decoding: digits[index..<(index + 2)], as: UTF8.self), radix: 16) else {
                return nil
            }
            out.append(byte)
            index += 2
        }
        return out
    }
}

/// Any JSON value, to take inputs out of the fixtures.
enum JSONValue: Decodable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue], keys: [String])

    init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: AnyKey.self) {
            var object: [String: JSONValue] = [:]
            let keys = container.allKeys.map(\.stringValue)
            for key in container.allKeys { object[key.stringValue] = try container.decode(JSONValue.self, forKey: key) }
            self = .object(object, keys: keys)
        } else if var container = try? decoder.unkeyedContainer() {
            var array: [JSONValue] = []
            while !container.isAtEnd { array.append(try container.decode(JSONValue.self)) }
            self = .array(array)
        } else {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else {
                self = .string(try container.decode(String.self))
            }
        }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let object, _) = self { return object[key] }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The value as JSON text again (numbers as Swift prints them, strings escaped).
    var json: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
        case .string(let value):
            var out = "\""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                default:
                    if scalar.value < 0x20 || scalar.value == 0x7F {
                        let hex = String(scalar.value, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            return out + "\""
        case .array(let values): return "[" + values.map(\.json).joined(separator: ",") + "]"
        case .object(let object, let keys):
            return "{"
                + keys.compactMap { key in object[key].map { JSONValue.string(key).json + ":" + $0.json } }.joined(
                    separator: ",") + "}"
        }
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
