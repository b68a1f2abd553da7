/// What a lenient read of a message gave: the records that could be read, each record skipped
/// and why, and where the reading stopped early if it did (RFC 6762 section 18: be liberal in
/// what is accepted).
public struct DNSLenientDecoding: Sendable, Hashable {
    /// The header, the questions and the records read.
    public var message: DNSMessage
    /// Why each skipped record was skipped: its data was malformed, the records around it were
    /// kept.
    public var skippedRecords: [DNSDecodingError]
    /// Why the message ended before its header's counts did, if it did: a broken question or
    /// owner name, a field that runs past the end, or the work bound. What came before is kept.
    public var stoppedBy: DNSDecodingError?
    /// Labels and pointers visited: at most ``DNSMessage/workBound(forSize:)`` of the size.
    package var work: Int

    /// Whether every question and record the header counts was read.
    public var isComplete: Bool { skippedRecords.isEmpty && stoppedBy == nil }

    /// Whether nothing was read past the header: no question and no record.
    public var gaveNothing: Bool {
        message.questions.isEmpty && message.answers.isEmpty && message.authorities.isEmpty
            && message.additionals.isEmpty
    }

    /// The records skipped or cut off: one per skipped record, and one more if reading stopped.
    public var malformedRecordCount: Int { skippedRecords.count + (stoppedBy == nil ? 0 : 1) }
}
