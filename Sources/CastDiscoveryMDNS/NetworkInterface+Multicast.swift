import CastDiscovery

extension NetworkInterface {
    /// Why no network can be asked by multicast here: no interface but loopback is up with
    /// multicast on (the message names each interface and what it lacks); nil when one is.
    ///
    /// The one rule for "is there a network to ask": `cast-scan doctor`'s "multicast
    /// interfaces" check and a one-shot listing both decide by it.
    package static func multicastUnavailability(_ interfaces: [NetworkInterface] = all()) -> DiscoveryError? {
        guard !interfaces.contains(where: \.isUsable) else { return nil }
        let seen = interfaces.map { interface -> String in
            if interface.isLoopback { return "\(interface.name) is loopback" }
            switch (interface.isUp, interface.supportsMulticast) {
            case (false, false): return "\(interface.name) is down and has multicast off"
            case (false, true): return "\(interface.name) is down"
            default: return "\(interface.name) has multicast off"
            }
        }
        let example = interfaces.first { !$0.isLoopback }?.name ?? "eth0"
        return DiscoveryError(
            kind: .other,
            message: "no network interface with multicast is up: "
                + (seen.isEmpty ? "there is no interface at all" : seen.joined(separator: ", ")),
            fix: "bring up a network interface with multicast, e.g. `ip link set \(example) up multicast on`")
    }
}
