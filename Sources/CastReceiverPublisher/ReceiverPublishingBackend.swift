import CastDiscovery
import CastDiscoveryDNSSD
#if os(Linux)
import CastDiscoveryAvahi
#endif

/// The daemon APIs receivers are published through.
public enum ReceiverPublishingBackend: String, Sendable, Hashable, CaseIterable {
    /// avahi-daemon's entry groups (libavahi-client).
    case avahi
    /// Apple's `DNSServiceRegister` (Avahi's compatibility library on Linux).
    case dnssd

    /// The most receivers one publisher takes: avahi-daemon gives a client 1,024 objects (an
    /// entry group each); Avahi's dns_sd library opens a D-Bus connection and a thread per
    /// registration, and the system bus allows 256 connections per user.
    public var maximumReceivers: Int {
        switch self {
        case .avahi: 1000
        case .dnssd: 100
        }
    }

    /// A publisher connected to the daemon.
    ///
    /// - Throws: `DiscoveryError` when the daemon (or D-Bus) cannot be reached, with the fix.
    public func makePublisher() throws(DiscoveryError) -> any ServicePublisher {
        switch self {
        case .avahi:
            #if os(Linux)
            return try AvahiServicePublisher()
            #else
            throw DiscoveryError(
                kind: .discoveryServiceMissing, message: "the Avahi backend exists only on Linux",
                fix: "use --backend dnssd")
            #endif
        case .dnssd:
            return try DNSSDServicePublisher()
        }
    }
}
