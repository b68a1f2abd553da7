import CastDiscovery

extension SimulatedReceiver {
    /// What follows a friendly name on a shared network unless exact names are asked for.
    public static let simulatedSuffix = " (simulated)"

    /// The receiver as published: ``simulatedSuffix`` after its friendly name (`fn`) unless
    /// `exactNames`, or when it is there already.
    public func published(exactNames: Bool) -> SimulatedReceiver {
        guard !exactNames, let name = value(of: "fn"), !name.hasSuffix(Self.simulatedSuffix) else { return self }
        var copy = self
        copy.set("fn", to: name + Self.simulatedSuffix)
        return copy
    }

    /// The DNS-SD registration: `_googlecast._tcp`, a `_APPID` subtype per app ID, on
    /// `interfaceIndexes` (empty: every interface the daemon uses).
    public func registration(interfaceIndexes: [UInt32] = []) -> ServiceRegistration {
        ServiceRegistration(
            instanceName: instanceName, serviceType: ServiceType.googleCast.typeString,
            subtypes: appIDs.map { "_" + $0 }, port: port, txt: txt, interfaceIndexes: interfaceIndexes)
    }
}
