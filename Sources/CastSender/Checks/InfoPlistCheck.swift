import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Checks an iOS Cast sender app's Info.plist against what discovery needs on iOS 14 and
/// later, for given discovery criteria.
///
/// It reads XML, binary and OpenStep property lists and reports, as ``CheckFinding``s:
/// - `NSBonjourServices`: missing, not an array, entries that are not strings or not service
///   types, a missing `_googlecast._tcp`, a missing `_<APPID>._googlecast._tcp` for each of the
///   criteria's application IDs, entries written with `_sub`, lower-case application IDs;
/// - `NSLocalNetworkUsageDescription`: missing, not a string, empty or blank;
/// - `NSBluetoothAlwaysUsageDescription`: missing when ``SDKAdvice`` says it is needed, or
///   present when it is not (with no ``project``, one `bluetooth-need-unknown` note).
///
/// Inputs that cannot be checked at all throw ``InfoPlistError``: unreadable or non-regular
/// files, more than ``maximumSize`` bytes (checked before reading the whole file), input that
/// is not a property list, nesting deeper than ``maximumNestingDepth``, binary lists expanding to
/// more than ``maximumObjectCount`` values, and top levels that are not dictionaries.
public struct InfoPlistCheck: Sendable, Hashable {
    /// The largest input read, in bytes: 8 MiB (real Info.plists are a few KiB).
    public static let maximumSize = 8 * 1024 * 1024
    /// The deepest nesting of arrays and dictionaries accepted.
    public static let maximumNestingDepth = 64
    /// The most values a binary property list may expand to.
    public static let maximumObjectCount = 200_000

    /// The `NSBonjourServices` key.
    public static let bonjourServicesKey = "NSBonjourServices"
    /// The `NSLocalNetworkUsageDescription` key.
    public static let localNetworkUsageDescriptionKey = "NSLocalNetworkUsageDescription"
    /// The `NSBluetoothAlwaysUsageDescription` key.
    public static let bluetoothUsageDescriptionKey = "NSBluetoothAlwaysUsageDescription"

    /// The criteria whose application IDs must be declared.
    public var criteria: DiscoveryCriteria
    /// The app's SDK, Xcode and deployment target, used to decide whether Bluetooth is needed;
    /// `nil` when unknown.
    public var project: SenderProject?

    /// Creates a check for `criteria` and, when known, the app's `project`.
    public init(
        criteria: DiscoveryCriteria = .defaultMediaReceiver,
        project: SenderProject? = nil
    ) {
        self.criteria = criteria
        self.project = project
    }

    /// Checks the Info.plist at `path`.
    ///
    /// - Throws: ``InfoPlistError`` when the file cannot be checked at all.
    public func check(fileAt path: String) throws(InfoPlistError) -> InfoPlistReport {
        try check(data: Self.read(path: path))
    }

    /// Checks an Info.plist's bytes (XML, binary or OpenStep).
    ///
    /// - Throws: ``InfoPlistError`` when the input cannot be checked at all.
    public func check(data: Data) throws(InfoPlistError) -> InfoPlistReport {
        report(for: try Self.dictionary(data: data))
    }

    /// The top-level dictionary of an Info.plist file (bounded, guarded).
    static func dictionary(fileAt path: String) throws(InfoPlistError) -> [String: PropertyListValue] {
        try dictionary(data: read(path: path))
    }

    /// The top-level dictionary of Info.plist bytes (XML, binary or OpenStep), after the
    /// size, nesting and object-count guards.
    static func dictionary(data: Data) throws(InfoPlistError) -> [String: PropertyListValue] {
        if data.isEmpty { throw .empty }
        if data.count > Self.maximumSize {
            throw .tooLarge(size: data.count, limit: Self.maximumSize)
        }
        try PropertyListGuard.check(
            data, maximumDepth: Self.maximumNestingDepth, maximumObjects: Self.maximumObjectCount)
        let root: PropertyListValue
        do {
            root = try PropertyListDecoder().decode(PropertyListValue.self, from: data)
        } catch {
            throw .notAPropertyList(reason: Self.reason(error))
        }
        guard case .dictionary(let dictionary) = root else {
            throw .notADictionary(actualType: root.typeName)
        }
        return dictionary
    }

    /// Reads at most ``maximumSize`` bytes of a regular file.
    private static func read(path: String) throws(InfoPlistError) -> Data {
        do throws(BoundedFile.Failure) {
            return try BoundedFile.read(path: path, limit: maximumSize)
        } catch {
            switch error {
            case .missing, .directory: throw .unreadable(path: path, reason: "\(error)")
            case .notRegular(let kind): throw .notARegularFile(path: path, kind: "\(kind)")
            case .tooLarge(let size, _): throw .tooLarge(size: size, limit: maximumSize)
            case .unreadable(let reason): throw .unreadable(path: path, reason: reason)
            }
        }
    }

    /// The parser's explanation of `error`: its debug description when it has one.
    private static func reason(_ error: any Error) -> String {
        guard case .dataCorrupted(let context)? = error as? DecodingError else { return "\(error)" }
        if let underlying = context.underlyingError as? CocoaError,
            let debug = underlying.userInfo["NSDebugDescription"] as? String, !debug.isEmpty
        {
            return debug
        }
        return context.debugDescription
    }
}
