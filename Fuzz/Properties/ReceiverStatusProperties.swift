import CastChannel
import CastDiscovery
import CastScanCLI
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RECEIVER_STATUS JSON (`ReceiverMessage(json:)`, as a payload_utf8 arrives), and what
/// `cast-scan status` prints for it.
///
/// - The lenient decode never traps; it throws only `CastChannelError`, whose text holds no
///   raw control character.
/// - What it reads, written back as JSON (the status by its own writer, `jsonText`), reads as
///   the same message.
/// - The status JSON (`cast-scan status --json`) and table hold no raw control character but
///   the line ends they write (the same for the reason when the payload is refused); the table is
///   one header and one row.
public enum ReceiverStatusProperties {
    static let property = Property(target: "receiver-status")

    private struct Written: Encodable {
        var type: String?
        var requestId: Int?
    }

    public static func check(_ bytes: [UInt8]) throws(PropertyFailure) {
        let text = String(decoding: bytes, as: UTF8.self)
        var result = ReceiverProbeResult(host: "192.168.1.20", port: 8009)
        do {
            let message = try ReceiverMessage(json: text)
            try checkRoundTrip(message)
            result.status = message.status
            result.tls = TLSParameters(protocol: "TLSv1.3", cipher: "TLS_AES_128_GCM_SHA256")
        } catch let error as CastChannelError {
            try property.requireNoRawControl(error.description, in: "the error")
            result.error = error
        } catch let failure as PropertyFailure {
            throw failure
        } catch {
            throw property.fail("ReceiverMessage(json:) threw \(error)")
        }
        try checkOutput(result)
    }

    private static func checkRoundTrip(_ message: ReceiverMessage) throws(PropertyFailure) {
        // type and requestId by JSONEncoder, the status by its own writer.
        let head: String
        do {
            let data = try JSONEncoder().encode(Written(type: message.type, requestId: message.requestId))
            head = String(decoding: data, as: UTF8.self)
        } catch {
            throw property.fail("the message's type and requestId cannot be written: \(error)")
        }
        var json = String(head.dropLast())
        if let status = message.status {
            json += (json.hasSuffix("{") ? "" : ",") + "\"status\":" + status.jsonText
        }
        json += "}"
        let again: ReceiverMessage
        do {
            again = try ReceiverMessage(json: json)
        } catch {
            throw property.fail(
                "the message written back (\(RawControl.escaped(json, around: 0))) cannot be read: \(error)")
        }
        try property.require(again == message, "the message written back reads as \(again), not \(message)")
    }

    private static func checkOutput(_ result: ReceiverProbeResult) throws(PropertyFailure) {
        let json: String
        do {
            json = try JSONOutput.string(ReceiverStatusReport([ReceiverCheck(result: result)]), format: .pretty)
        } catch {
            throw property.fail("the status JSON cannot be written: \(error)")
        }
        try property.require(json.hasSuffix("\n"), "the status JSON does not end with a line end")
        try property.requireNoRawControl(String(json.dropLast()), allowing: ["\n"], in: "the status JSON")
        do {
            try JSONSyntax.check(Array(json.utf8))
        } catch {
            throw property.fail("the status JSON is not JSON: \(error)")
        }
        let lines = ReceiverStatusTable([ReceiverCheck(result: result)], authenticating: false).lines
        try property.require(lines.count == 2, "the status table has \(lines.count) lines, not a header and one row")
        for line in lines { try property.requireNoRawControl(line, in: "the status table") }
        // The row of a device whose channel gave this status.
        let device = try TXTRecordProperties.checkDevice(
            TXTRecord(strings: [Array("id=0123456789abcdef0123456789abcdef".utf8), Array("fn=Fuzz".utf8)]),
            instanceName: "Fuzz")
        let deviceJSON: String
        do {
            deviceJSON = try JSONOutput.string(DeviceReport(device, receiver: result), format: .lines)
        } catch {
            throw property.fail("the device JSON with its status cannot be written: \(error)")
        }
        try property.requireNoRawControl(String(deviceJSON.dropLast()), in: "the device JSON with its status")
    }
}
