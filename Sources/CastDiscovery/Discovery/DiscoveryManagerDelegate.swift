/// Receives a ``DiscoveryManager``'s events, one method per ``DiscoveryEvent`` case.
///
/// The manager holds its delegate weakly and calls it in event order, one call at a time, from
/// a task of its own (no particular thread or actor). Every method has an empty default.
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
    /// ``DiscoveryEvent/scanCompleted``.
    func discoveryManagerDidCompleteScan(_ manager: DiscoveryManager)
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
    public func discoveryManagerDidCompleteScan(_ manager: DiscoveryManager) {}
}
