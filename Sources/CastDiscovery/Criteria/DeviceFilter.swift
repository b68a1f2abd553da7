/// Which of a device's addresses a discovery manager shows: those on one interface, those of some
/// address families. A device with no address left is not listed.
///
/// The filter is applied by the manager's list (``DeviceList``), so every index a list change
/// carries is an index of the filtered list, whatever the backend. It is also handed to the
/// backend in the ``BrowseRequest``, which may use it to ask less (browse one interface or one
/// protocol); it need not.
public struct DeviceFilter: Sendable, Hashable {
    /// The interface addresses must have been seen on, by name (`eth0`); nil for any interface.
    /// An address whose interface is not known (a known host's) does not match a named one.
    public var interfaceName: String?
    /// The address families shown.
    public var families: Set<ServiceAddress.Family>

    /// The filter that keeps every address.
    public static let none = DeviceFilter()

    /// Creates a filter; by default it keeps every address.
    public init(interfaceName: String? = nil, families: Set<ServiceAddress.Family> = [.ipv4, .ipv6]) {
        self.interfaceName = interfaceName
        self.families = families
    }

    /// Whether the filter keeps every address.
    public var keepsEverything: Bool {
        interfaceName == nil && families.isSuperset(of: [.ipv4, .ipv6])
    }

    /// Whether `address` passes.
    public func allows(_ address: ServiceAddress) -> Bool {
        families.contains(address.family) && (interfaceName == nil || address.interfaceName == interfaceName)
    }

    /// `device` with only the addresses the filter keeps; nil when none is left. With
    /// ``keepsEverything``, the device as it is (even with no address).
    public func apply(to device: CastDevice) -> CastDevice? {
        guard !keepsEverything else { return device }
        let kept = device.keepingAddresses(where: allows)
        return kept.addresses.isEmpty ? nil : kept
    }
}
