import CastDiscovery

/// The Info.plist keys a Cast sender app needs, as an XML fragment to paste inside the
/// top-level `<dict>`.
///
/// ``xml`` lists `NSBonjourServices` (the criteria's entries first, then any other entries
/// kept), `NSLocalNetworkUsageDescription` and, when set, `NSBluetoothAlwaysUsageDescription`.
/// Text is XML-escaped; strings with control or invisible characters are never copied into the
/// snippet (the sample text is used instead).
public struct InfoPlistSnippet: Sendable, Hashable, Codable {
    /// Google's sample `NSLocalNetworkUsageDescription`.
    public static let sampleLocalNetworkUsageDescription =
        "${PRODUCT_NAME} uses the local network to discover Cast-enabled devices on your WiFi "
        + "network."

    /// A sample `NSBluetoothAlwaysUsageDescription` (this toolkit's wording, not Google's).
    public static let sampleBluetoothUsageDescription =
        "${PRODUCT_NAME} uses Bluetooth to discover nearby Cast devices."

    /// The `NSBonjourServices` entries, de-duplicated, required entries first.
    public let bonjourServices: [String]
    /// The `NSLocalNetworkUsageDescription` text.
    public let localNetworkUsageDescription: String
    /// The `NSBluetoothAlwaysUsageDescription` text, or `nil` to leave the key out.
    public let bluetoothUsageDescription: String?

    /// Creates the snippet for `criteria`.
    ///
    /// - Parameters:
    ///   - criteria: gives the required entries, `DiscoveryCriteria.bonjourServices`.
    ///   - keepingServices: other entries to keep after the required ones; duplicates and
    ///     strings with control or invisible characters are dropped.
    ///   - localNetworkUsageDescription: the text to use; `nil`, blank or unsafe text gives
    ///     ``sampleLocalNetworkUsageDescription``.
    ///   - includeBluetoothUsageDescription: whether to add `NSBluetoothAlwaysUsageDescription`.
    ///   - bluetoothUsageDescription: its text; `nil`, blank or unsafe text gives
    ///     ``sampleBluetoothUsageDescription``.
    public init(
        criteria: DiscoveryCriteria,
        keepingServices: [String] = [],
        localNetworkUsageDescription: String? = nil,
        includeBluetoothUsageDescription: Bool = false,
        bluetoothUsageDescription: String? = nil
    ) {
        var seen = Set<String>()
        var services: [String] = []
        for service in criteria.bonjourServices + keepingServices
        where Self.isUsable(service) && seen.insert(service).inserted {
            services.append(service)
        }
        bonjourServices = services
        self.localNetworkUsageDescription =
            localNetworkUsageDescription.flatMap { Self.isUsable($0) ? $0 : nil }
            ?? Self.sampleLocalNetworkUsageDescription
        self.bluetoothUsageDescription =
            includeBluetoothUsageDescription
            ? bluetoothUsageDescription.flatMap { Self.isUsable($0) ? $0 : nil }
                ?? Self.sampleBluetoothUsageDescription
            : nil
    }

    /// The XML fragment, tab-indented like Xcode writes it, ending with a newline.
    public var xml: String {
        var lines = ["<key>NSBonjourServices</key>", "<array>"]
        lines += bonjourServices.map { "\t<string>\(Self.escaped($0))</string>" }
        lines += [
            "</array>",
            "<key>NSLocalNetworkUsageDescription</key>",
            "<string>\(Self.escaped(localNetworkUsageDescription))</string>",
        ]
        if let bluetoothUsageDescription {
            lines += [
                "<key>NSBluetoothAlwaysUsageDescription</key>",
                "<string>\(Self.escaped(bluetoothUsageDescription))</string>",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` with `&`, `<` and `>` written as XML entities.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }

    /// Non-blank and free of control, format and other invisible or unassigned characters.
    static func isUsable(_ text: String) -> Bool {
        !text.allSatisfy(\.isWhitespace) && !SafeText.containsUnsafeScalars(text)
    }
}
