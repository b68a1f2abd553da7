import CastDiscovery
extension SenderPlatform {
    /// Parses `linux`, or an iOS version as `iOS 14.5`, `iOS 13` or just `14.5` (a third
    /// component is accepted and ignored). Case-insensitive for the names.
    ///
    /// - Throws: ``SenderConfigurationError`` for anything else.
    public init(parsing text: String) throws(SenderConfigurationError) {
        let lowered = text.lowercased()
        if lowered == "linux" {
            self = .linux
            return
        }
        let number = lowered.hasPrefix("ios ") ? String(text.dropFirst(4)) : text
        guard let version = try? SDKVersion(parsing: number), version.components.count <= 3 else {
            throw SenderConfigurationError(
                message: "platform \(SafeText.quoted(text)) is not \"linux\" or an iOS version such as \"iOS 14.5\"")
        }
        self = .iOS(major: version.major, minor: version.minor)
    }
}
