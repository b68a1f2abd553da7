import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ReceiverFile {
    /// The file as JSON.
    struct FileCoding: Decodable {
        var devices: [EntryCoding]
    }

    /// One entry of `devices`, any of the three forms; unknown keys are refused.
    struct EntryCoding: Decodable {
        static let labKeys: Set = [
            "fixture", "service", "instance", "host", "port", "txt", "txtHex", "txtWireHex", "subtypes",
            "stack", "ipv6Only", "ttl", "announceSubtypes", "description", "source", "expected", "addresses",
            // The lab's own Cast channel (castlab); publish answers from the device's state.
            "receiver",
        ]
        static let typedKeys: Set = [
            "name", "id", "model", "capabilities", "group", "status", "statusText", "appIDs",
            "port", "cd", "rm", "bs", "nf", "ve", "ic", "description",
        ]

        var fixture: String?
        var service: ServiceCoding?
        var inline: ServiceCoding?
        var typed: TypedCoding?

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            let keys = Set(container.allKeys.map(\.stringValue))
            let isTyped = keys.contains("name") || keys.contains("model")
            let allowed = isTyped ? Self.typedKeys : Self.labKeys
            if let unknown = keys.subtracting(allowed).sorted().first {
                let form =
                    isTyped
                    ? "a typed device (name, model, capabilities, …)"
                    : "a lab entry (fixture, or instance, port, txt, …)"
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath + [Key(stringValue: unknown)],
                        debugDescription: "not a field of \(form)"))
            }
            if isTyped {
                typed = try TypedCoding(from: decoder)
            } else {
                fixture = try container.decodeIfPresent(String.self, forKey: Key(stringValue: "fixture"))
                service = try container.decodeIfPresent(ServiceCoding.self, forKey: Key(stringValue: "service"))
                if fixture == nil, service == nil { inline = try ServiceCoding(from: decoder) }
            }
        }
    }

    /// A fixture file: its `service`.
    struct FixtureCoding: Decodable {
        var service: ServiceCoding
    }

    /// The lab's service fields.
    struct ServiceCoding: Decodable {
        var instance: String
        var port: Int
        var txt: [String]?
        var txtHex: [String]?
        var txtWireHex: String?
        var subtypes: [String]?
    }

    /// A typed device.
    struct TypedCoding: Decodable {
        var name: String
        var id: String?
        var model: String
        var capabilities: UInt32
        var group: Bool?
        var status: String?
        var statusText: String?
        var appIDs: [String]?
        var port: Int?
        var cd, rm, bs, nf, ve, ic: String?
    }

    static func receiver(_ entry: EntryCoding, directory: String) throws(ReceiverFileError.Reason) -> SimulatedReceiver
    {
        if let typed = entry.typed { return try receiver(typed) }
        if let service = entry.service ?? entry.inline { return try receiver(service) }
        guard let fixture = entry.fixture else { throw .init("neither a fixture, a service nor a typed device") }
        let path = fixture.hasPrefix("/") ? fixture : "\(directory)/\(fixture)"
        let data: Data
        do throws(ReceiverFileError) {
            data = try read(path)
        } catch {
            throw .init("fixture \(error)")
        }
        do {
            return try receiver(JSONDecoder().decode(FixtureCoding.self, from: data).service)
        } catch let error as ReceiverFileError.Reason {
            throw .init("fixture \(SafeText.quoted(path, limit: 200)): \(error.text)")
        } catch let error as DecodingError {
            throw .init("fixture \(SafeText.quoted(path, limit: 200)): \(error.summary)")
        } catch {
            throw .init("fixture \(SafeText.quoted(path, limit: 200)): \(error)")
        }
    }

    private static func port(_ value: Int?, default fallback: UInt16) throws(ReceiverFileError.Reason) -> UInt16 {
        guard let value else { return fallback }
        guard let port = UInt16(exactly: value), port > 0 else {
            throw .init("port: \(value) is not a port (1 to 65535)")
        }
        return port
    }

    private static func appIDs(_ values: [String]) throws(ReceiverFileError.Reason) -> [String] {
        var ids: [String] = []
        for value in values {
            let text = value.hasPrefix("_") ? String(value.dropFirst()) : value
            do throws(DiscoveryCriteriaError) {
                let id = try ApplicationID(text).rawValue
                if !ids.contains(id) { ids.append(id) }
            } catch {
                throw .init("app ID \(SafeText.quoted(value)): \(error)")
            }
        }
        return ids
    }

    private static func receiver(_ service: ServiceCoding) throws(ReceiverFileError.Reason) -> SimulatedReceiver {
        var strings: [[UInt8]]
        if let wire = service.txtWireHex {
            guard let bytes = HexText.bytes(wire) else { throw .init("txtWireHex: not hex") }
            strings = []
            var index = 0
            while index < bytes.count {
                let length = Int(bytes[index])
                guard index + 1 + length <= bytes.count else {
                    throw .init("txtWireHex: a string runs past the end of the record")
                }
                if length > 0 { strings.append(Array(bytes[(index + 1)..<(index + 1 + length)])) }
                index += 1 + length
            }
        } else if let hex = service.txtHex {
            strings = []
            for (index, text) in hex.enumerated() {
                guard let bytes = HexText.bytes(text) else { throw .init("txtHex[\(index)]: not hex") }
                strings.append(bytes)
            }
        } else {
            strings = (service.txt ?? []).map { Array($0.utf8) }
        }
        return SimulatedReceiver(
            instanceName: service.instance, port: try port(service.port, default: SimulatedReceiver.devicePort),
            appIDs: try appIDs(service.subtypes ?? []), txt: strings.map(TXTEntry.init(bytes:)))
    }

    private static func receiver(_ typed: TypedCoding) throws(ReceiverFileError.Reason) -> SimulatedReceiver {
        let isGroup = typed.group ?? false
        let id: String
        if let given = typed.id {
            guard CastDeviceIDShape.accepts(given) else {
                throw .init("id: \(SafeText.quoted(given)) is not 32 hex digits, a UUID or 12 hex digits")
            }
            id = given
        } else {
            id = CastDeviceIDShape.random(group: isGroup)
        }
        let busy: Bool
        switch typed.status ?? "idle" {
        case "idle": busy = false
        case "busy": busy = true
        case let other: throw .init("status: \(SafeText.quoted(other)) is neither \"idle\" nor \"busy\"")
        }
        var extra: [String: String] = [:]
        for (key, value) in [
            ("cd", typed.cd), ("rm", typed.rm), ("bs", typed.bs), ("nf", typed.nf), ("ve", typed.ve), ("ic", typed.ic),
        ] {
            if let value { extra[key] = value }
        }
        return SimulatedReceiver(
            id: id, friendlyName: typed.name, model: typed.model, capabilities: typed.capabilities, isGroup: isGroup,
            busy: busy, statusText: typed.statusText ?? "",
            appIDs: try appIDs(typed.appIDs ?? [ApplicationID.defaultMediaReceiver.rawValue]),
            port: try typed.port.map { value throws(ReceiverFileError.Reason) in try port(value, default: 0) },
            extra: extra)
    }
}
