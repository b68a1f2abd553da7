import CastDiscovery
import CastScanCLI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// TXT records (`TXTRecord(wireFormat:)`), the lenient device made from one, and what
/// cast-scan prints for that device.
///
/// - The read never traps, and agrees with reading the same strings one by one
///   (`TXTRecord(strings:)`): same entries, same issues, a truncated tail reported last.
/// - What it gives re-encodes (`wireFormat()` cannot fail on it) and decodes to the same
///   entries, with no empty string or truncation left; encoding again gives the same bytes.
/// - The device made under the lenient policy never throws; the strict policy accepts exactly
///   the devices with no receiver-rule problem, and gives the same device.
/// - The JSON (`--json`) and the table cast-scan prints for it hold no raw control character
///   but the line ends they write; the JSON reads back with the device's names and TXT strings
///   unchanged (escaping changes the text, not the value); the table is one header and one row.
public enum TXTRecordProperties {
    static let property = Property(target: "txt-record")

    public static func check(_ bytes: [UInt8]) throws(PropertyFailure) {
        let record = TXTRecord(wireFormat: bytes)
        try checkAgainstStrings(record, bytes)
        try checkRoundTrip(record)
        let device = try checkDevice(record, instanceName: "Fuzz-TXT")
        try DeviceOutputProperties.check(device, property: property)
    }

    /// The record read string by string, the way the wire format is defined.
    private static func checkAgainstStrings(_ record: TXTRecord, _ bytes: [UInt8]) throws(PropertyFailure) {
        // Empty input and a single zero byte are the empty record (documented).
        if bytes.isEmpty || bytes == [0] {
            try property.require(
                record.entries.isEmpty && record.issues.isEmpty, "\(bytes) is not the empty record: \(record)")
            return
        }
        var strings: [[UInt8]] = []
        var truncation: TXTRecordIssue?
        var offset = 0
        while offset < bytes.count {
            let length = Int(bytes[offset])
            let available = bytes.count - offset - 1
            if length > available {
                truncation = .truncated(offset: offset, declaredLength: length, available: available)
                break
            }
            strings.append(Array(bytes[(offset + 1)..<(offset + 1 + length)]))
            offset += 1 + length
        }
        let expected = TXTRecord(strings: strings)
        try property.require(
            record.entries == expected.entries,
            "the wire read gives entries \(record.entries), string by string \(expected.entries)")
        let expectedIssues = expected.issues + (truncation.map { [$0] } ?? [])
        try property.require(
            record.issues == expectedIssues,
            "the wire read gives issues \(record.issues), string by string \(expectedIssues)")
    }

    private static func checkRoundTrip(_ record: TXTRecord) throws(PropertyFailure) {
        let encoded: [UInt8]
        do {
            encoded = try record.wireFormat()
        } catch {
            throw property.fail("a record read from the wire cannot be written back: \(error)")
        }
        let again = TXTRecord(wireFormat: encoded)
        try property.require(again.entries == record.entries, "re-read entries \(again.entries) != \(record.entries)")
        try property.require(
            !again.issues.contains {
                if case .emptyString = $0 { true } else if case .truncated = $0 { true } else { false }
            },
            "the written record reads with issues \(again.issues)")
        try property.require(
            again.issues == TXTRecord(entries: record.entries).issues,
            "re-read issues \(again.issues) != \(TXTRecord(entries: record.entries).issues)")
        let encodedAgain = try? again.wireFormat()
        try property.require(encodedAgain == encoded, "writing is not stable: \(encoded) then \(encodedAgain ?? [])")
    }

    /// A resolved service of `instanceName` with `txt`, on one fixed address.
    static func service(instanceName: String, port: UInt16, txt: TXTRecord) -> ResolvedService {
        ResolvedService(
            instanceName: instanceName, hostName: "fuzz.local", port: port,
            addresses: [ServiceAddress("192.168.1.20", interfaceName: "eth0")!], txt: txt)
    }

    /// The device the lenient policy makes of `service`: that it throws is a failure of `property`.
    static func lenientDevice(_ service: ResolvedService, property: Property) throws(PropertyFailure) -> CastDevice {
        do {
            return try CastDevice(service: service, policy: .lenient)
        } catch {
            throw property.fail("the lenient device parse threw \(error)")
        }
    }

    /// The device the lenient policy makes (never throwing), checked against the strict one.
    static func checkDevice(_ record: TXTRecord, instanceName: String) throws(PropertyFailure) -> CastDevice {
        let service = Self.service(instanceName: instanceName, port: 8009, txt: record)
        let device = try lenientDevice(service, property: property)
        let broken = device.problems.filter(\.violatesReceiverRules)
        do {
            let strict = try CastDevice(service: service, policy: .strict)
            try property.require(broken.isEmpty, "strict accepted a device with receiver-rule problems \(broken)")
            try property.require(strict == device, "strict and lenient devices differ")
        } catch let failure as PropertyFailure {
            throw failure
        } catch let rejection as DeviceRejection {
            try property.require(
                rejection.reasons == broken && !broken.isEmpty,
                "strict rejected for \(rejection.reasons), the lenient device's rule problems are \(broken)")
        } catch {
            throw property.fail("strict threw \(error)")
        }
        return device
    }
}

/// What cast-scan prints for a device: its `--json` document and its table row.
enum DeviceOutputProperties {
    /// The fields of a device's JSON that come from the network.
    private struct ReadBack: Decodable, Equatable {
        var friendlyName: String
        var instanceName: String
        var modelName: String?
        var statusText: String?
        var txt: [String]
    }

    static func check(_ device: CastDevice, property: Property) throws(PropertyFailure) {
        // The document of `cast-scan --json` (watch's JSON Lines go through the same encoder
        // and escaping, without the indentation).
        let json: String
        do {
            json = try JSONOutput.string(DeviceReport(device), format: .pretty)
        } catch {
            throw property.fail("the device's JSON cannot be written: \(error)")
        }
        try property.require(json.hasSuffix("\n"), "the device's JSON does not end with a line end")
        try property.requireNoRawControl(String(json.dropLast()), allowing: ["\n"], in: "the device's JSON")
        // Escaping changes the text, not the value: the names and TXT strings read back as given.
        let decoded: ReadBack
        do {
            decoded = try JSONDecoder().decode(ReadBack.self, from: Data(json.utf8))
        } catch {
            throw property.fail("the device's JSON does not read back: \(error)")
        }
        let expected = ReadBack(
            friendlyName: device.friendlyName, instanceName: device.instanceName, modelName: device.modelName,
            statusText: device.statusText, txt: device.txt.entries.map { String(decoding: $0.bytes, as: UTF8.self) })
        try property.require(decoded == expected, "the device's JSON reads back as \(decoded), not \(expected)")
        let table = DeviceTable.render([device])
        try property.requireNoRawControl(table, allowing: ["\n"], in: "the device table")
        let lines = table.split(separator: "\n", omittingEmptySubsequences: false)
        try property.require(
            lines.count == 3 && lines[2].isEmpty,
            "the device table is not a header and one row ending with a line end: \(RawControl.escaped(table, around: 0))"
        )
    }
}
