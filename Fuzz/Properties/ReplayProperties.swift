import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Replays (`ReplayRecording(json:)`, what `--replay` and scenarios read).
///
/// - Never traps; throws only `DiscoveryError` of kind `badInput`, whose text holds no raw
///   control character.
/// - What reads writes back (`json()`) as JSON that reads as the same recording, and writing
///   that again gives the same bytes.
public enum ReplayProperties {
    static let property = Property(target: "replay")

    public static func check(_ bytes: [UInt8]) throws(PropertyFailure) {
        let recording: ReplayRecording
        do {
            recording = try ReplayRecording(json: Data(bytes))
        } catch {
            try property.require(error.kind == .badInput, "the error's kind is \(error.kind), not badInput")
            try property.requireNoRawControl(error.description, in: "the error")
            return
        }
        let written = recording.json()
        try property.require(!written.isEmpty, "a recording that was read cannot be written")
        let again: ReplayRecording
        do {
            again = try ReplayRecording(json: written)
        } catch {
            throw property.fail(
                "the written recording cannot be read: \(error)\n\(String(decoding: written, as: UTF8.self))")
        }
        try property.require(again == recording, "the written recording reads as another recording")
        try property.require(again.json() == written, "writing is not stable")
    }
}
