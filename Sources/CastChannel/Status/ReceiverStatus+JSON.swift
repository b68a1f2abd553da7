#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension ReceiverStatus {
    /// The status as a RECEIVER_STATUS message's `status` object (JSON, keys sorted, absent
    /// fields left out).
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
