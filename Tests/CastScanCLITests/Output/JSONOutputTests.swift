import Foundation
import Testing

@testable import CastScanCLI

/// Stable JSON for scripts.
@Suite("JSONOutput")
struct JSONOutputTests {
    struct Device: Codable, Equatable {
        var name: String
        var url: String
        var seen: Date
        var port: Int
    }

    static let device = Device(
        name: "Kitchen\n\"speaker\"", url: "http://10.0.0.7:8008/setup",
        seen: Date(timeIntervalSince1970: 1_714_564_800.25), port: 8009)

    @Test(
        "formats",
        arguments: [
            (
                JSONOutput.Format.lines,
                #"{"name":"Kitchen\n\"speaker\"","port":8009,"seen":"2024-05-01T12:00:00.250Z","url":"http://10.0.0.7:8008/setup"}"#
                    + "\n"
            ),
            (
                .pretty,
                """
                {
                  "name" : "Kitchen\\n\\"speaker\\"",
                  "port" : 8009,
                  "seen" : "2024-05-01T12:00:00.250Z",
                  "url" : "http://10.0.0.7:8008/setup"
                }

                """
            ),
        ])
    func formats(format: JSONOutput.Format, expected: String) throws {
        #expect(try JSONOutput.string(Self.device, format: format) == expected)
    }

    @Test("output is identical across encoders (keys sorted)")
    func stable() throws {
        let outputs = try (0..<20).map { _ in try JSONOutput.string(Self.device, format: .lines) }
        #expect(Set(outputs).count == 1)
    }

    @Test("a JSON line holds exactly one newline", arguments: ["a\nb", "\u{2028}", "\r\n", "\u{1B}[31m"])
    func oneLine(name: String) throws {
        var device = Self.device
        device.name = name
        let line = try JSONOutput.string(device, format: .lines)
        #expect(line.filter { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.count == 1)
        #expect(line.last == "\n")
        #expect(!line.unicodeScalars.contains("\u{1B}"))
    }

    @Test(
        "the decoder reads what the encoder writes, with or without fractional seconds",
        arguments: ["2024-05-01T12:00:00.250Z", "2024-05-01T12:00:00Z"])
    func roundTrip(date: String) throws {
        let json = #"{"name":"x","url":"u","seen":"\#(date)","port":1}"#
        let decoded = try JSONOutput.decoder().decode(Device.self, from: Data(json.utf8))
        #expect(abs(decoded.seen.timeIntervalSince1970 - 1_714_564_800) < 1)
        let again = try JSONOutput.decoder().decode(
            Device.self, from: Data(try JSONOutput.string(Self.device, format: .pretty).utf8))
        #expect(again == Self.device)
    }

    @Test("a bad date is a decoding error")
    func badDate() {
        let json = #"{"name":"x","url":"u","seen":"yesterday","port":1}"#
        #expect(throws: DecodingError.self) {
            try JSONOutput.decoder().decode(Device.self, from: Data(json.utf8))
        }
    }
}
