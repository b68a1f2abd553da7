#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the sender model needs from an app's Info.plist: the Bonjour service types it may
/// browse (`NSBonjourServices`) and the text of the local network prompt
/// (`NSLocalNetworkUsageDescription`), with the app's name for the prompt's title.
public struct SenderInfoPlist: Sendable, Hashable {
    /// The `NSBonjourServices` strings (entries of another type are left out).
    public var bonjourServices: [String]
    /// `NSLocalNetworkUsageDescription`, when it is a string.
    public var localNetworkUsageDescription: String?
    /// `CFBundleDisplayName`, else `CFBundleName`, when a string.
    public var appName: String?

    /// Creates the contents directly.
    public init(bonjourServices: [String], localNetworkUsageDescription: String? = nil, appName: String? = nil) {
        self.bonjourServices = bonjourServices
        self.localNetworkUsageDescription = localNetworkUsageDescription
        self.appName = appName
    }

    /// Reads an Info.plist file (XML, binary or OpenStep; the same limits as ``InfoPlistCheck``).
    ///
    /// - Throws: ``InfoPlistError`` when it cannot be read as a dictionary.
    public init(fileAt path: String) throws(InfoPlistError) {
        let dictionary = try InfoPlistCheck.dictionary(fileAt: path)
        bonjourServices = (dictionary[InfoPlistCheck.bonjourServicesKey]?.array ?? []).compactMap(\.string)
        localNetworkUsageDescription = dictionary[InfoPlistCheck.localNetworkUsageDescriptionKey]?.string
        appName = dictionary["CFBundleDisplayName"]?.string ?? dictionary["CFBundleName"]?.string
    }
}
