import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON message on the receiver, heartbeat or connection namespace, as far as a sender that
/// asks for status reads it: its type, its request id, and a RECEIVER_STATUS's status.
///
/// Read liberally: a key that is missing or has another type than the protocol's is left out
/// (nil), unknown keys are ignored, key order does not matter. Only text that is not JSON, or
/// JSON that is not an object, is refused.
public struct ReceiverMessage: Sendable, Hashable {
    /// `type`: `RECEIVER_STATUS`, `PING`, `PONG`, `CLOSE`, `CONNECTED`, `INVALID_REQUEST`, ...
    public var type: String?
    /// `requestId`: the request this answers; 0 or nil for a broadcast.
    public var requestId: Int?
    /// `status`, for a RECEIVER_STATUS.
    public var status: ReceiverStatus?

    /// The deepest nesting a receiver's message needs (status, applications, an app's
    /// namespaces), with room to spare.
    static let depthLimit = 16

    /// Creates a message.
    public init(type: String? = nil, requestId: Int? = nil, status: ReceiverStatus? = nil) {
        self.type = type
        self.requestId = requestId
        self.status = status
    }

    /// Reads a message's JSON payload.
    ///
    /// - Throws: ``CastChannelError`` of kind `.protocol` when the payload is not a JSON object.
    public init(json text: String) throws(CastChannelError) {
        let bytes = Array(text.utf8)
        do {
            try JSONSyntax.check(bytes, depthLimit: Self.depthLimit)
        } catch {
            throw CastChannelError(.protocol, "a payload that is not JSON: \(error)")
        }
        do {
            self = try JSONDecoder().decode(LenientMessage.self, from: Data(bytes)).message
        } catch {
            throw CastChannelError(.protocol, "a payload that is not a JSON object")
        }
    }
}

/// The lenient reading of ``ReceiverMessage``: each field decoded alone, a wrong type left out.
private struct LenientMessage: Decodable {
    var message: ReceiverMessage

    private enum Key: String, CodingKey {
        case type, requestId, status
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        message = ReceiverMessage()
        message.type = container.lenient(String.self, .type)
        message.requestId = container.lenientInteger(.requestId)
        message.status = container.lenient(LenientStatus.self, .status)?.status
    }
}

private struct LenientStatus: Decodable {
    var status: ReceiverStatus

    private enum Key: String, CodingKey {
        case applications, volume, isActiveInput, isStandBy
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        status = ReceiverStatus()
        if let apps = container.lenient(LenientArray<LenientApplication>.self, .applications) {
            status.applications = apps.elements.prefix(ReceiverStatus.maximumApplications).map(\.application)
        }
        status.volume = container.lenient(LenientVolume.self, .volume)?.volume
        status.isActiveInput = container.lenient(Bool.self, .isActiveInput)
        status.isStandBy = container.lenient(Bool.self, .isStandBy)
    }
}

private struct LenientApplication: Decodable {
    var application: ReceiverApplication

    private enum Key: String, CodingKey {
        case appId, universalAppId, displayName, statusText, isIdleScreen, appType, sessionId
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        application = ReceiverApplication(
            appId: container.lenient(String.self, .appId),
            universalAppId: container.lenient(String.self, .universalAppId),
            displayName: container.lenient(String.self, .displayName),
            statusText: container.lenient(String.self, .statusText),
            isIdleScreen: container.lenient(Bool.self, .isIdleScreen),
            appType: container.lenient(String.self, .appType),
            sessionId: container.lenient(String.self, .sessionId))
    }
}

private struct LenientVolume: Decodable {
    var volume: ReceiverVolume

    private enum Key: String, CodingKey {
        case level, muted, controlType, stepInterval
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        volume = ReceiverVolume(
            level: container.lenientFraction(.level), muted: container.lenient(Bool.self, .muted),
            controlType: container.lenient(String.self, .controlType),
            stepInterval: container.lenientFraction(.stepInterval))
    }
}

/// An array whose elements that cannot be read are left out, not the whole array.
private struct LenientArray<Element: Decodable>: Decodable {
    var elements: [Element] = []

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            if let element = try? container.decode(Element.self) {
                elements.append(element)
            } else {
                // Step over the element that is not an `Element`.
                _ = try container.decode(Skipped.self)
            }
        }
    }
}

/// Any JSON value, read and dropped.
private struct Skipped: Decodable {
    init(from decoder: any Decoder) throws {}
}

extension KeyedDecodingContainer {
    /// The value at `key` when it has type `T`; nil when it is missing, null or another type.
    fileprivate func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }

    /// A whole number at `key` that fits an `Int`; nil otherwise.
    fileprivate func lenientInteger(_ key: Key) -> Int? {
        if let value = lenient(Int.self, key) { return value }
        // Some receivers write 7.0; a fraction is not a request id.
        guard let value = lenient(Double.self, key), value.rounded() == value, abs(value) < 1e15 else { return nil }
        return Int(value)
    }

    /// A number from 0 to 1 at `key` (a level or a step); nil when missing, another type, or
    /// outside 0...1 (NaN included).
    fileprivate func lenientFraction(_ key: Key) -> Double? {
        guard let value = lenient(Double.self, key), value >= 0, value <= 1 else { return nil }
        return value
    }
}
