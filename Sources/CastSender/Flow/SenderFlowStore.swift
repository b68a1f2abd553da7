import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
    /// - Throws: ``DiscoveryStartStoreError`` of kind `refused` when the path is not a regular
    ///   file (a directory, device, FIFO or socket), `unreadable` when it cannot be read.
    public func load() throws(DiscoveryStartStoreError) -> Loaded {
        let path = url.path
        let data: Data
        do throws(BoundedFile.Failure) {
            data = try BoundedFile.read(path: path, limit: DiscoveryStartStore.maximumFileSize)
        } catch {
            switch error {
            case .missing: return Loaded(state: SenderFlowState(), version: nil)
            case .directory: throw DiscoveryStartStoreError(kind: .refused, path: path, message: "it is a directory")
            case .notRegular(let kind):
                throw DiscoveryStartStoreError(kind: .refused, path: path, message: "it is \(kind)")
            case .tooLarge: return corrupt("\(error)")
            case .unreadable(let reason): throw DiscoveryStartStoreError(kind: .unreadable, path: path, message: reason)
            }
        }
        guard (try? JSONSyntax.check(data, depthLimit: 4)) != nil else { return corrupt("not a discovery start file") }
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

    /// Stores the state as version 2, replacing the file atomically (see the core's file rules:
    /// a link is followed and its target replaced; anything but a regular file is refused);
    /// creates missing parent directories.
    ///
    /// - Throws: ``DiscoveryStartStoreError`` of kind `refused` or `unwritable`.
    public func save(_ state: SenderFlowState) throws(DiscoveryStartStoreError) {
        let contents = Contents(
            version: Self.currentVersion, discoveryHasStartedOnce: state.discoveryHasStartedOnce,
            localNetworkPermission: state.localNetworkPermission, bluetoothPromptAnswered: state.bluetoothPromptAnswered
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(contents)
        } catch {
            throw DiscoveryStartStoreError(kind: .unwritable, path: url.path, message: "\(error)")
        }
        do throws(AtomicFile.Failure) {
            try AtomicFile.write(Array(data), to: url.path, createDirectories: true)
        } catch {
            throw DiscoveryStartStoreError(
                kind: error.isRefusal ? .refused : .unwritable, path: url.path, message: error.reason(at: url.path))
        }
    }

    /// Checks, before anything runs, that the state can be kept at this path: nothing is
    /// there yet, or a regular file (possibly behind symbolic links).
    ///
    /// - Throws: ``DiscoveryStartStoreError`` of kind `refused` for a device, FIFO, socket or
    ///   directory, or `unwritable` when the path cannot be inspected.
    public func checkUsable() throws(DiscoveryStartStoreError) {
        do throws(AtomicFile.Failure) {
            _ = try AtomicFile.destination(of: url.path)
        } catch {
            throw DiscoveryStartStoreError(
                kind: error.isRefusal ? .refused : .unwritable, path: url.path, message: error.reason(at: url.path))
        }
    }

    private func corrupt(_ message: String) -> Loaded {
        Loaded(
            state: SenderFlowState(), version: nil,
            problem: DiscoveryStartStoreError(kind: .corrupt, path: url.path, message: message))
    }
}
