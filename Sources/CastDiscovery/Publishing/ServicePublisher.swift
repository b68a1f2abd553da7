/// A daemon's publishing API (Avahi's entry groups, dns_sd's `DNSServiceRegister`): services
/// registered under ids the caller picks, their TXT records updated, withdrawn with goodbyes.
///
/// Calls return once the daemon has the request; what becomes of it (published, renamed after
/// a name conflict, failed) comes as ``PublishingEvent``s. After a daemon restart a publisher
/// registers everything again by itself.
public protocol ServicePublisher: AnyObject, Sendable {
    /// What happens to the registrations; bounded, with what it drops counted in
    /// ``droppedEvents``. Ends after ``close()``.
    var events: AsyncStream<PublishingEvent> { get }

    /// The events the stream dropped because its reader was behind.
    var droppedEvents: Int { get }

    /// Registers `registration` under `id` (an id in use is withdrawn first).
    func register(_ registration: ServiceRegistration, id: Int) throws(DiscoveryError)

    /// Replaces the TXT record of the registration `id`, as a device announces a change.
    func updateTXT(_ txt: [TXTEntry], id: Int) throws(DiscoveryError)

    /// Withdraws the registration `id` (goodbye packets, TTL 0); nothing for an unknown id.
    func withdraw(id: Int)

    /// Withdraws everything and lets the daemon go; the event stream ends. Safe to call twice.
    func close()
}
