import CastDiscovery

/// The one owner of the ``Fleet``: the discovery loop changes it, and the server's thread
/// reads copies of it for each request.
package final class FleetMonitor: Sendable {
    private let state: LockedValue<Fleet>

    package init(_ fleet: Fleet) { state = LockedValue(fleet) }

    /// A copy of the fleet as it is now.
    var snapshot: Fleet { state.withLock { $0 } }

    /// Changes the fleet.
    func update<T: Sendable>(_ change: (inout Fleet) -> T) -> T {
        state.withLock { change(&$0) }
    }
}
