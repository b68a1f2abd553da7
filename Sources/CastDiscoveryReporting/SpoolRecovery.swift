/// What an event spool did when it found its file moved away, removed, replaced or damaged
/// while it was in use: it went on in a fresh file at its path and carried over the undelivered
/// events the old file still gave. Also what it did when it took over the events a recovery cut
/// short (a process killed during it) had left in a rescue file.
public struct SpoolRecovery: Sendable, Hashable, CustomStringConvertible {
    /// Why the spool changed files.
    public enum Cause: Sendable, Hashable {
        /// The file at the spool's path is no longer the one in use: it was moved away or
        /// removed (with its directory, maybe), or another file was put there. The detail says
        /// which.
        case replaced(String)
        /// The file in use was changed under the spool: truncated, overwritten, or failing its
        /// integrity check. It is set aside, its bytes kept.
        case damaged(String)
        /// A rescue file left by a recovery that did not finish was taken over (its name).
        case rescued(String)
    }

    public var cause: Cause
    /// The spool's database file, as configured.
    public var spool: String
    /// The undelivered events carried into the spool now in use.
    public var carried: Int
    /// False when some stored events could not be read any more (they are lost).
    public var complete: Bool
    /// The files set aside (renamed, never deleted), with their new names.
    public var setAside: [String]

    /// Creates a recovery report.
    public init(cause: Cause, spool: String, carried: Int, complete: Bool, setAside: [String] = []) {
        self.cause = cause
        self.spool = spool
        self.carried = carried
        self.complete = complete
        self.setAside = setAside
    }

    public var description: String {
        let events = "\(carried) undelivered event\(carried == 1 ? "" : "s")"
        let lost = complete ? "" : " (some stored events could not be read and are lost)"
        let aside = setAside.isEmpty ? "" : "; set aside as " + setAside.joined(separator: ", ")
        switch cause {
        case .replaced(let detail):
            return "the event spool \(spool) changed under this process (\(detail)): a new one is used there, "
                + "with the \(events) the old file still held\(lost)\(aside)"
        case .damaged(let detail):
            return "the event spool \(spool) was damaged while in use (\(detail))\(aside); a new one is used, "
                + "with the \(events) still readable\(lost)"
        case .rescued(let file):
            return "the event spool \(spool) took over the \(events) of \(file), left by an interrupted recovery\(lost)"
        }
    }
}
