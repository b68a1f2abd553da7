import Foundation

/// A JSON file remembering whether discovery has started once, across launches.
///
/// The file is `{"version": 1, "discoveryHasStartedOnce": true}`, written atomically. A missing
/// file means "not yet"; a corrupt one is reported in ``Loaded/problem`` and counts as missing.
public struct DiscoveryStartStore: Sendable, Hashable {
    /// What ``load()`` found.
    public struct Loaded: Sendable, Hashable {
        /// Whether discovery has started once in an earlier launch.
        public var discoveryHasStartedOnce: Bool
        /// Why the file was ignored, when it was there but not readable as a store.
        public var problem: DiscoveryStartStoreError?

        /// Creates a result.
        public init(discoveryHasStartedOnce: Bool, problem: DiscoveryStartStoreError? = nil) {
            self.discoveryHasStartedOnce = discoveryHasStartedOnce
            self.problem = problem
        }
    }

    private struct Contents: Codable {
        var version: Int
        var discoveryHasStartedOnce: Bool
    }

    /// The largest file read, in bytes; a larger one counts as corrupt.
    public static let maximumFileSize = 64 * 1024

    /// Where the file is.
    public let url: URL

    /// Creates a store at `url` (nothing is read or written yet).
    public init(url: URL) {
        self.url = url
    }

    /// Reads the stored fact.
    ///
    /// - Throws: ``DiscoveryStartStoreError`` of kind `unreadable` when the path exists but
    ///   cannot be read (a directory, no permission).
    public func load() throws(DiscoveryStartStoreError) -> Loaded {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return Loaded(discoveryHasStartedOnce: false, problem: nil)
        }
        if isDirectory.boolValue {
            throw DiscoveryStartStoreError(kind: .unreadable, path: path, message: "is a directory")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw DiscoveryStartStoreError(kind: .unreadable, path: path, message: Self.reason(error))
        }
        if data.count > Self.maximumFileSize {
            return corrupt("\(data.count) bytes, more than \(Self.maximumFileSize)")
        }
        do {
            let contents = try JSONDecoder().decode(Contents.self, from: data)
            guard contents.version == 1 else { return corrupt("unknown version \(contents.version)") }
            return Loaded(discoveryHasStartedOnce: contents.discoveryHasStartedOnce, problem: nil)
        } catch {
            return corrupt("not a discovery start file")
        }
    }

    /// Stores the fact, replacing the file atomically; creates missing parent directories.
    ///
    /// - Throws: ``DiscoveryStartStoreError`` of kind `unwritable`.
    public func save(discoveryHasStartedOnce: Bool) throws(DiscoveryStartStoreError) {
        let path = url.path
        do {
            let data = try JSONEncoder().encode(Contents(version: 1, discoveryHasStartedOnce: discoveryHasStartedOnce))
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw DiscoveryStartStoreError(kind: .unwritable, path: path, message: Self.reason(error))
        }
    }

    private func corrupt(_ message: String) -> Loaded {
        Loaded(
            discoveryHasStartedOnce: false,
            problem: DiscoveryStartStoreError(kind: .corrupt, path: url.path, message: message))
    }

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
            let posix = POSIXErrorCode(rawValue: Int32(underlying.code)), underlying.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(posix.rawValue))
        }
        return nsError.localizedDescription
    }
}
