#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The "discovery has started once" fact of a sender app, kept across launches.
///
/// A view of the sender's state file (``SenderFlowStore``) that reads and writes only that
/// fact: saving it keeps the permission answers stored beside it. A missing file means "not
/// yet"; a corrupt one is reported in ``Loaded/problem`` and counts as missing.
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

    /// The largest file read, in bytes; a larger one counts as corrupt.
    public static let maximumFileSize = 64 * 1024

    /// Where the file is.
    public var url: URL { store.url }

    private let store: SenderFlowStore

    /// Creates a store at `url` (nothing is read or written yet).
    public init(url: URL) {
        store = SenderFlowStore(url: url)
    }

    /// Reads the stored fact.
    ///
    /// - Throws: ``DiscoveryStartStoreError`` of kind `unreadable` when the path exists but
    ///   cannot be read (a directory, no permission).
    public func load() throws(DiscoveryStartStoreError) -> Loaded {
        let loaded = try store.load()
        return Loaded(discoveryHasStartedOnce: loaded.state.discoveryHasStartedOnce, problem: loaded.problem)
    }

    /// Stores the fact, keeping the rest of the stored state, replacing the file atomically;
    /// creates missing parent directories.
    ///
    /// - Throws: ``DiscoveryStartStoreError`` of kind `unwritable`.
    public func save(discoveryHasStartedOnce: Bool) throws(DiscoveryStartStoreError) {
        // What cannot be read is not kept; writing then fails or starts the file afresh.
        var state = (try? store.load().state) ?? SenderFlowState()
        state.discoveryHasStartedOnce = discoveryHasStartedOnce
        try store.save(state)
    }
}
