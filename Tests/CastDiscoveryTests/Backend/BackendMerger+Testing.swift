@testable import CastDiscovery

extension BackendMerger {
    /// A merge of sources with these names and roles, each waiting as a stack that says nothing
    /// else does (``FirstReportWait/standard``).
    init(sources: [(name: String, role: MergedBackend.Role)], ledger: ResolutionLedger? = nil) {
        self.init(
            sources: sources.map { (name: $0.name, role: $0.role, wait: FirstReportWait.standard) }, ledger: ledger)
    }

    /// `event` of source `index`, taken now as a turn of its own: with the pending count it
    /// leaves.
    mutating func take(_ event: BackendEvent, from index: Int) -> [BackendEvent] {
        take(event, from: index, at: .now) + flush()
    }
}
