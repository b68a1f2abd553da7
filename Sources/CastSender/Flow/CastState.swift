/// The Cast state a sender app sees, like the SDK's `GCKCastState`, with the same raw values.
///
/// In JSON it is its name (`"notConnected"`); `rawValue` is the SDK's number (Android uses
/// 1-4 for the same states).
public enum CastState: Int, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// No device is available (`GCKCastStateNoDevicesAvailable`, 0).
    case noDevicesAvailable = 0
    /// Devices are available, no session (`GCKCastStateNotConnected`, 1).
    case notConnected = 1
    /// A session is being set up (`GCKCastStateConnecting`, 2).
    case connecting = 2
    /// A session is up (`GCKCastStateConnected`, 3).
    case connected = 3

    /// The case name, as in JSON: `noDevicesAvailable`, `notConnected`, `connecting`, `connected`.
    public var name: String {
        switch self {
        case .noDevicesAvailable: "noDevicesAvailable"
        case .notConnected: "notConnected"
        case .connecting: "connecting"
        case .connected: "connected"
        }
    }

    /// The state with this case name; nil for any other string.
    public init?(name: String) {
        guard let state = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = state
    }

    /// The name and the SDK's number, e.g. `notConnected (1)`.
    public var description: String { "\(name) (\(rawValue))" }

    /// Decodes a state from its name.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for a string that names no state.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let state = CastState(name: name) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "unknown cast state \"\(name)\"; expected one of "
                    + Self.allCases.map(\.name).joined(separator: ", "))
        }
        self = state
    }

    /// Encodes the state as its name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
