/// Told what an ``EventReporter`` did: each send's result and each drop by the spool's bounds.
/// The same reports come as ``EventReporter/reports``.
public protocol EventReporterDelegate: AnyObject, Sendable {
    /// A send ended: how many events were delivered and how many failed (and stay stored).
    func eventReporter(_ reporter: EventReporter, didSend result: SendResult)
    /// The spool's bounds dropped `count` of the oldest undelivered events.
    func eventReporter(_ reporter: EventReporter, didDrop count: Int)
}

extension EventReporterDelegate {
    public func eventReporter(_ reporter: EventReporter, didDrop count: Int) {}
}

/// One report of an ``EventReporter``.
public enum EventReport: Sendable, Hashable {
    /// A send ended.
    case sent(SendResult)
    /// The spool's bounds dropped this many of the oldest undelivered events.
    case dropped(Int)
}
