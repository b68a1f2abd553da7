import CastDiscovery

/// The Cast channel's state of each device, keyed by the device's unique ID
/// (`CastDevice.uniqueID`): what the last attempt to ask it gave, how often asking it failed,
/// by reason, and the verdict on its last answer to the device-authentication challenge. The one store of channel state: listings, watches and `serve`
/// read it here, beside the discovery list, which holds the devices themselves.
public final class ReceiverStates: Sendable {
    /// One device's channel state.
    public struct Entry: Sendable, Hashable {
        /// What the last attempt gave.
        public var result: ReceiverProbeResult
        /// How many attempts failed, by reason.
        public var failures: [CastChannelError.Code: Int] = [:]
        /// The verdict on the last answer to the device-authentication challenge (given by
        /// whoever judged it, at its time); nil before the first.
        public var authentication: DeviceAuthVerdict?
    }

    /// The most devices held; a device past it is not recorded (and counted in ``dropped``).
    public let capacity: Int
    private let box = LockedValue(State())

    private struct State {
        var entries: [String: Entry] = [:]
        var dropped = 0
        var revision = 0
    }

    /// Creates an empty store that holds at most `capacity` devices.
    public init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
    }

    /// Records what asking the device with `uniqueID` gave. Returns false, and counts the
    /// result in ``dropped``, when the store is full and the device is not in it.
    @discardableResult
    public func record(_ result: ReceiverProbeResult, for uniqueID: String) -> Bool {
        box.withLock { state in
            guard state.entries[uniqueID] != nil || state.entries.count < capacity else {
                state.dropped += 1
                return false
            }
            var entry = state.entries[uniqueID] ?? Entry(result: result)
            entry.result = result
            if let code = result.error?.code { entry.failures[code, default: 0] += 1 }
            state.entries[uniqueID] = entry
            state.revision += 1
            return true
        }
    }

    /// Records the verdict on the device's last answer to the device-authentication challenge;
    /// nothing for a device not held.
    public func record(authentication verdict: DeviceAuthVerdict, for uniqueID: String) {
        box.withLock { state in
            guard state.entries[uniqueID] != nil else { return }
            state.entries[uniqueID]?.authentication = verdict
            state.revision += 1
        }
    }

    /// The device's state; nil when it was never asked.
    public func entry(for uniqueID: String) -> Entry? {
        box.withLock { $0.entries[uniqueID] }
    }

    /// Forgets a device (it left the list).
    public func forget(_ uniqueID: String) {
        box.withLock { state in
            if state.entries.removeValue(forKey: uniqueID) != nil { state.revision += 1 }
        }
    }

    /// Every device's state, with the store's revision: equal revisions, equal entries.
    public func snapshot() -> (revision: Int, entries: [String: Entry]) {
        box.withLock { ($0.revision, $0.entries) }
    }

    /// Changes with every result recorded and every device forgotten.
    public var revision: Int { box.withLock { $0.revision } }

    /// How many devices are held.
    public var count: Int { box.withLock { $0.entries.count } }

    /// How many results were not recorded because the store was full.
    public var dropped: Int { box.withLock { $0.dropped } }
}
