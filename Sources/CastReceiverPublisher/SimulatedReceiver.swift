import CastDiscovery

/// A Cast receiver to publish: the instance name, port, app-ID subtypes and TXT record a real
/// device of its kind publishes (`Fixtures/lab/*.json` describe them).
///
/// The TXT strings are kept in order; changes replace a key's value where it stands, as a
/// device's next announcement does.
public struct SimulatedReceiver: Sendable, Hashable {
    /// The TXT keys real receivers publish, in the order they publish them.
    public static let keyOrder = ["id", "cd", "rm", "ve", "md", "ic", "fn", "ca", "st", "bs", "nf", "rs"]
    /// The port of a device's Cast channel.
    public static let devicePort: UInt16 = 8009

    /// The DNS-SD instance name (`Chromecast-406c2bcdd5995755059b5bb045326056`).
    public var instanceName: String
    /// The port the service names.
    public var port: UInt16
    /// The app IDs published as subtypes (`CC1AD845`, without the underscore).
    public var appIDs: [String]
    /// The TXT strings, in wire order.
    public var txt: [TXTEntry]
    /// The volume its Cast channel says, 0 to 1 (not in TXT).
    public var volumeLevel: Double = 0.5
    /// Whether its Cast channel says it is muted (not in TXT).
    public var isMuted = false

    /// A receiver exactly as given (a lab fixture's service).
    public init(instanceName: String, port: UInt16, appIDs: [String], txt: [TXTEntry]) {
        self.instanceName = instanceName
        self.port = port
        self.appIDs = appIDs
        self.txt = txt
    }

    /// A receiver as a device of `model` publishes itself: the instance name from the model and
    /// the id (`Google-Cast-Group-…` for a group), port 8009 (a group: a high port made from
    /// its id, as a group leader picks one), and the TXT keys in ``keyOrder``.
    ///
    /// - Parameters:
    ///   - id: 32 hex digits for a device, a UUID for a group, 12 hex digits for an emulator.
    ///   - friendlyName: the name people see (`fn`).
    ///   - model: the model name (`md`), which also names the instance.
    ///   - capabilities: the capability bits (`ca`, see `CastCapabilities`).
    ///   - isGroup: whether the receiver is a speaker group.
    ///   - busy: whether an app runs (`st` 1), with `statusText` as its status (`rs`).
    ///   - statusText: what a busy receiver says it plays (`rs`); ignored when idle.
    ///   - appIDs: the application IDs whose subtypes the receiver is published under.
    ///   - port: the Cast channel's port; nil for a device's 8009 or a group's own.
    ///   - extra: values for the keys real devices carry without documenting (`cd`, `rm`,
    ///     `bs`, `nf`) or to override `ve` and `ic`.
    public init(
        id: String, friendlyName: String, model: String, capabilities: UInt32, isGroup: Bool = false,
        busy: Bool = false, statusText: String = "", appIDs: [String] = [ApplicationID.defaultMediaReceiver.rawValue],
        port: UInt16? = nil, extra: [String: String] = [:]
    ) {
        let hex = Self.hexDigits(of: id)
        let label = isGroup ? "Google-Cast-Group" : Self.instanceLabel(of: model)
        instanceName = "\(label)-\(hex.lowercased())"
        self.port = port ?? (isGroup ? Self.groupPort(for: hex) : Self.devicePort)
        self.appIDs = appIDs
        var values: [String: String] = [
            "id": id, "cd": hex.uppercased(), "rm": "", "ve": "05", "md": model, "ic": "/setup/icon.png",
            "fn": friendlyName, "ca": String(capabilities), "st": busy ? "1" : "0",
            "bs": "FA8F" + String(hex.uppercased().prefix(8)), "nf": "1", "rs": busy ? statusText : "",
        ]
        for (key, value) in extra { values[key] = value }
        txt = Self.keyOrder.map { TXTEntry(key: $0, value: Array(values[$0, default: ""].utf8)) }
    }

    /// The receiver's `id` value, or the empty string.
    public var id: String { value(of: "id") ?? "" }

    /// The id compared without case and dashes (a group's UUID and its 32-hex form are one id).
    public var normalizedID: String { Self.hexDigits(of: id).lowercased() }

    /// The value of the first TXT string with `key` (compared without case), as text.
    public func value(of key: String) -> String? {
        guard let index = index(of: key) else { return nil }
        let entry = txt[index]
        return entry.value.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Sets `key` to `value`: in place of its first string, else after the others.
    public mutating func set(_ key: String, to value: String) {
        let entry = TXTEntry(key: key, value: Array(value.utf8))
        if let index = index(of: key) { txt[index] = entry } else { txt.append(entry) }
    }

    private func index(of key: String) -> Int? {
        let wanted = Array(key.lowercased().utf8)
        return txt.firstIndex { entry in entry.key.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 } == wanted }
    }

    /// The hex digits of an id, without dashes or anything else.
    static func hexDigits(of id: String) -> String {
        String(id.unicodeScalars.filter { $0.properties.isASCIIHexDigit }.map(Character.init))
    }

    /// A model name as the first label of a device's instance name: `Google Nest Mini` →
    /// `Google-Nest-Mini` (anything but ASCII letters and digits becomes a hyphen).
    static func instanceLabel(of model: String) -> String {
        let mapped = model.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) ? Character(scalar) : "-"
        }
        let label = String(mapped).split(separator: "-").joined(separator: "-")
        return label.isEmpty ? "Chromecast" : label
    }

    /// A group's port: 32000 to 41999, from its id (a leader picks a high port per group).
    static func groupPort(for hex: String) -> UInt16 {
        let value = hex.unicodeScalars.reduce(UInt32(0)) { ($0 &* 31) &+ $1.value }
        return UInt16(32_000 + value % 10_000)
    }
}
