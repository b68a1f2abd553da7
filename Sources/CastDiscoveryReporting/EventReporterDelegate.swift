/// Told what an ``EventReporter`` did: each send's result, the drops by the spool's bounds and
/// each recovery of the spool. The same reports come as ``EventReporter/reports``.
public protocol EventReporterDelegate: AnyObject, Sendable {
    /// A send ended: how many events were delivered and how many failed (and stay stored).
    func eventReporter(_ reporter: EventReporter, didSend result: SendResult)
    /// The spool's bounds dropped `count` of the oldest undelivered events (since the last
    /// such report).
    func eventReporter(_ reporter: EventReporter, didDrop count: Int)
    /// The spool's file changed under it and it went on in a fresh one.
    func eventReporter(_ reporter: EventReporter, didRecover recovery: SpoolRecovery)
}

extension EventReporterDelegate {
    public func eventReporter(_ reporter: EventReporter, didDrop count: Int) {}
    public func eventReporter(_ reporter: EventReporter, didRecover recovery: SpoolRecovery) {}
}

/// One report of an ``EventReporter``.
public enum EventReport: Sendable, Hashable {
    /// A send ended.
    case sent(SendResult)
    /// The spool's bounds dropped this many of the oldest undelivered events (since the last
    /// such report: at most one a second).
    case dropped(Int)
    /// The spool's file was moved away, removed, replaced or damaged while in use, and a fresh
    /// one took the undelivered events the old one still gave.
    case recovered(SpoolRecovery)
}
