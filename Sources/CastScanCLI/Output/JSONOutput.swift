import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON encoding used for machine-readable output: stable, diff-friendly, and the same
/// for every command.
///
/// Object keys are sorted (`.sortedKeys`): `JSONEncoder` does not keep the order in which a
/// type encodes its keys (on Linux the order changes from run to run), so sorting is the only
/// way to give byte-identical output for identical data. Slashes are not escaped, and dates are
/// ISO 8601 in UTC with milliseconds (`2024-05-01T12:00:00.250Z`). Non-finite numbers are an
/// encoding error.
///
/// Strings are escaped as JSON requires (quotes, backslash, C0 controls), and every other
/// scalar the package's text rule calls unsafe (DEL, the C1 controls, bidi and other format
/// characters, U+2028/U+2029) is written as a `\uXXXX` escape too, so `cat` or `jq -r` never
/// puts one raw on a terminal. The value is unchanged: JSON output stays data, not display
/// text, and device names are not passed through `TerminalText`.
package enum JSONOutput {
    /// The layout of the encoded text.
    package enum Format: Sendable, Hashable {
        /// Indented, one key per line; for a single document.
        case pretty
        /// One value per line, no line breaks inside (JSON Lines); for streams of events.
        case lines
    }

    /// The date layout used in output; also accepted by `decoder()`.
    static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    /// A new encoder configured for `format`.
    static func encoder(_ format: Format) -> JSONEncoder {
        let encoder = JSONEncoder()
        var formatting: JSONEncoder.OutputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if format == .pretty { formatting.insert(.prettyPrinted) }
        encoder.outputFormatting = formatting
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(dateStyle))
        }
        return encoder
    }

    /// A new decoder that reads what `encoder(_:)` writes; dates may omit fractional seconds.
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = try? dateStyle.parse(text) { return date }
            if let date = try? Date.ISO8601FormatStyle(timeZone: .gmt).parse(text) { return date }
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected an ISO 8601 date, got \(text)")
        }
        return decoder
    }

    /// `value` encoded as text in `format`, ending with a newline.
    package static func string(_ value: some Encodable, format: Format) throws -> String {
        try text(bytes(value, format: format))
    }

    /// `value` encoded in `format`, its unsafe scalars escaped, without the final newline: the
    /// bytes that are both printed (``text(_:)``) and stored for a collector.
    static func bytes(_ value: some Encodable, format: Format) throws -> [UInt8] {
        JSONText.escapingUnsafeScalars(Array(try encoder(format).encode(value)))
    }

    /// Encoded bytes (``bytes(_:format:)``) as a line of text.
    static func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self) + "\n"
    }
}
