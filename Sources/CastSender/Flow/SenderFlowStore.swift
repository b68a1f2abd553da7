import CastDiscovery
import Foundation

/// The discovery start file extended with the permission answers: a ``SenderFlowState`` kept
/// across launches, in the file format of ``DiscoveryStartStore``.
///
/// It writes version 2, `{"version": 2, "discoveryHasStartedOnce": true,
/// "localNetworkPermission": "denied", "bluetoothPromptAnswered": false}`, atomically. It reads
/// version 2 and version 1 files (`{"version": 1, "discoveryHasStartedOnce": true}`, which
/// recorded no answers: the permission loads as ``LocalNetworkPermission/notDetermined``). A
/// missing file is a fresh install; a corrupt one is reported in ``Loaded/problem`` and counts as
/// missing. ``DiscoveryStartStore`` is a view of the same file that reads and writes only the
/// start fact.
public struct SenderFlowStore: Sendable, Hashable {
    /// What ``load()`` found.
    public struct Loaded: Sendable, Hashable {
        /// The stored state; a fresh install's when the file is missing or corrupt.
        public var state: SenderFlowState
        /// The file's format version; nil when there was no usable file.
        public var version: Int?
        /// Why the file was ignored, when it was there but not readable as a store.
        public var problem: DiscoveryStartStoreError?

        /// Creates a result.
        public init(state: SenderFlowState, version: Int?, problem: DiscoveryStartStoreError? = nil) {
            self.state = state
            self.version = version
            self.problem = problem
        }
    }

    /// The version this type writes.
    public static let currentVersion = 2

    private struct Contents: Codable {
        var version: Int
        var discoveryHasStartedOnce: Bool
        var localNetworkPermission: LocalNetworkPermission?
        var bluetoothPromptAnswered: Bool?
    }

    /// Where the file is.
    public let url: URL

    /// Creates a store at `url` (nothing is read or written yet).
    public init(url: URL) {
        self.url = url
    }

    /// Reads the stored state.
    ///
    /// - Throws: ``DiscoveryStartStoreError`` of kind `unreadable` when the path exists but
    ///   cannot be read (a directory, no permission).
    public func load() throws(DiscoveryStartStoreError) -> Loaded {
        let path = url.path
        let data: Data
        do throws(BoundedFile.Failure) {
            data = try BoundedFile.read(path: path, limit: DiscoveryStartStore.maximumFileSize)
        } catch {
            switch error {
            case .missing: return Loaded(state: SenderFlowState(), version: nil)
            case .directory: throw DiscoveryStartStoreError(kind: .unreadable, path: path, message: "is a directory")
            case .notRegular: throw DiscoveryStartStoreError(kind: .unreadable, path: path, message: "not a regular file")
            case .tooLarge(let size): return corrupt("\(size) bytes, more than \(DiscoveryStartStore.maximumFileSize)")
            case .unreadable(let reason): throw DiscoveryStartStoreError(kind: .unreadable, path: path, message: reason)
            }
        }
        let contents: Contents
        do {
            contents = try JSONDecoder().decode(Contents.self, from: data)
        } catch {
            return corrupt("not a discovery start file")
        }
        switch contents.version {
        case 1:
            return Loaded(state: SenderFlowState(discoveryHasStartedOnce: contents.discoveryHasStartedOnce), version: 1)
        case 2:
            guard let permission = contents.localNetworkPermission else {
                return corrupt("version 2 without localNetworkPermission")
            }
            guard let bluetooth = contents.bluetoothPromptAnswered else {
                return corrupt("version 2 without bluetoothPromptAnswered")
            }
            let state = SenderFlowState(
                discoveryHasStartedOnce: contents.discoveryHasStartedOnce, localNetworkPermission: permission,
                bluetoothPromptAnswered: bluetooth)
            return Loaded(state: state, version: 2)
        default:
            return corrupt("unknown version \(contents.version)")
        }
    }

    /// Stores the state as version 2, replacing the file atomically; creates missing parent
    /// directories.
    ///
    /// - Throws: ``DiscoveryStartStoreError`` of kind `unwritable`.
    public func save(_ state: SenderFlowState) throws(DiscoveryStartStoreError) {
        let contents = Contents(
            version: Self.currentVersion, discoveryHasStartedOnce: state.discoveryHasStartedOnce,
            localNetworkPermission: state.localNetworkPermission, bluetoothPromptAnswered: state.bluetoothPromptAnswered)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = try encoder.encode(contents)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url, options: .atomic)
        } catch {
            throw DiscoveryStartStoreError(kind: .unwritable, path: url.path, message: BoundedFile.reason(error))
        }
    }

    private func corrupt(_ message: String) -> Loaded {
        Loaded(
            state: SenderFlowState(), version: nil,
            problem: DiscoveryStartStoreError(kind: .corrupt, path: url.path, message: message))
    }
}
