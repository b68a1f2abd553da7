/// Receives a ``DiscoveryManager``'s events, one method per ``DiscoveryEvent`` case.
///
/// The manager holds its delegate weakly and calls it in event order, one call at a time, from
/// its loop (no particular thread or actor), after the batch of events the call belongs to is
/// published: inside a call the manager's getters show the list after that batch. A slow method
/// delays the manager's next events. Every method has an empty default.
public protocol DiscoveryManagerDelegate: AnyObject, Sendable {
    /// ``DiscoveryEvent/discoveryStarted(browseTypes:)``.
    func discoveryManager(_ manager: DiscoveryManager, didStartDiscoveryBrowsing browseTypes: [String])
    /// ``DiscoveryEvent/hadDiscoveredDevicesWhenStarting(count:)``.
    func discoveryManagerDidHaveDiscoveredDeviceWhenStartingDiscovery(_ manager: DiscoveryManager)
    /// ``DiscoveryEvent/discoveryStopped(_:)``.
    func discoveryManager(_ manager: DiscoveryManager, didStopDiscovery reason: DiscoveryStopReason)
    /// ``DiscoveryEvent/discoveryFailedToStart(_:)``.
    func discoveryManager(_ manager: DiscoveryManager, didFailToStartDiscovery error: DiscoveryError)
    /// ``DiscoveryEvent/willUpdateDeviceList``.
    func discoveryManagerWillUpdateDeviceList(_ manager: DiscoveryManager)
    /// ``DiscoveryEvent/didUpdateDeviceList``.
    func discoveryManagerDidUpdateDeviceList(_ manager: DiscoveryManager)
    /// ``DiscoveryEvent/inserted(_:at:)``.
    func discoveryManager(_ manager: DiscoveryManager, didInsert device: CastDevice, at index: Int)
    /// ``DiscoveryEvent/updated(_:at:)``.
    func discoveryManager(_ manager: DiscoveryManager, didUpdate device: CastDevice, at index: Int)
    /// ``DiscoveryEvent/updatedAndMoved(_:from:to:)``.
    func discoveryManager(
        _ manager: DiscoveryManager, didUpdate device: CastDevice, at index: Int, andMoveTo newIndex: Int)
    /// ``DiscoveryEvent/removed(_:at:)``; called just before
    /// ``discoveryManager(_:didRemove:at:)``.
    func discoveryManager(_ manager: DiscoveryManager, didRemoveDeviceAt index: Int)
    /// ``DiscoveryEvent/removed(_:at:)``, with the device as it was last listed.
    func discoveryManager(_ manager: DiscoveryManager, didRemove device: CastDevice, at index: Int)
    /// ``DiscoveryEvent/backendStateChanged(_:)``.
    func discoveryManager(_ manager: DiscoveryManager, didChangeBackendState state: BackendState)
    /// ``DiscoveryEvent/cacheExhausted(browseType:)``.
    func discoveryManager(_ manager: DiscoveryManager, didExhaustCacheFor browseType: String)
    /// ``DiscoveryEvent/allForNow(browseType:)``.
    func discoveryManager(_ manager: DiscoveryManager, didReceiveAllForNowFor browseType: String)
    /// ``DiscoveryEvent/resolveFailed(_:_:)``.
    func discoveryManager(_ manager: DiscoveryManager, didFailToResolve service: ServiceKey, error: DiscoveryError)
    /// ``DiscoveryEvent/backendStatistics(_:)``.
    func discoveryManager(_ manager: DiscoveryManager, didCount statistics: BackendStatistics)
    /// ``DiscoveryEvent/browseSettled(_:)``.
    func discoveryManager(_ manager: DiscoveryManager, didSettle browse: BrowseSettlement)
    /// ``DiscoveryEvent/scanCompleted(_:)``, with the list at that moment.
    func discoveryManager(_ manager: DiscoveryManager, didCompleteScan completion: ScanCompletion)
    /// ``DiscoveryEvent/eventsDropped(_:)``: the manager never calls it (its delegate gets every
    /// event as it happens); ``DiscoveryEvent/deliver(to:from:)`` does, for an application that
    /// hands a stream's events to a delegate.
    func discoveryManager(_ manager: DiscoveryManager, didMissEvents missed: MissedEvents)
}

extension DiscoveryManagerDelegate {
    public func discoveryManager(_ manager: DiscoveryManager, didStartDiscoveryBrowsing browseTypes: [String]) {}
    public func discoveryManagerDidHaveDiscoveredDeviceWhenStartingDiscovery(_ manager: DiscoveryManager) {}
    public func discoveryManager(_ manager: DiscoveryManager, didStopDiscovery reason: DiscoveryStopReason) {}
    public func discoveryManager(_ manager: DiscoveryManager, didFailToStartDiscovery error: DiscoveryError) {}
    public func discoveryManagerWillUpdateDeviceList(_ manager: DiscoveryManager) {}
    public func discoveryManagerDidUpdateDeviceList(_ manager: DiscoveryManager) {}
    public func discoveryManager(_ manager: DiscoveryManager, didInsert device: CastDevice, at index: Int) {}
    public func discoveryManager(_ manager: DiscoveryManager, didUpdate device: CastDevice, at index: Int) {}
    public func discoveryManager(
        _ manager: DiscoveryManager, didUpdate device: CastDevice, at index: Int, andMoveTo newIndex: Int
    ) {}
    public func discoveryManager(_ manager: DiscoveryManager, didRemoveDeviceAt index: Int) {}
    public func discoveryManager(_ manager: DiscoveryManager, didRemove device: CastDevice, at index: Int) {}
    public func discoveryManager(_ manager: DiscoveryManager, didChangeBackendState state: BackendState) {}
    public func discoveryManager(_ manager: DiscoveryManager, didExhaustCacheFor browseType: String) {}
    public func discoveryManager(_ manager: DiscoveryManager, didReceiveAllForNowFor browseType: String) {}
    public func discoveryManager(
        _ manager: DiscoveryManager, didFailToResolve service: ServiceKey, error: DiscoveryError
    ) {}
    public func discoveryManager(_ manager: DiscoveryManager, didCount statistics: BackendStatistics) {}
    public func discoveryManager(_ manager: DiscoveryManager, didSettle browse: BrowseSettlement) {}
    public func discoveryManager(_ manager: DiscoveryManager, didCompleteScan completion: ScanCompletion) {}
    public func discoveryManager(_ manager: DiscoveryManager, didMissEvents missed: MissedEvents) {}
}
