/// The outcome of running a ``SenderScenario``.
public struct SenderScenarioRun: Sendable, Hashable {
    /// The snapshot after each step run, up to and including a mismatching one.
    public var steps: [SenderFlowStep]
    /// The first step whose snapshot differs from the file; nil when every step matched.
    public var mismatch: SenderScenarioMismatch?
    /// What the app remembers at the end (what a store would hold).
    public var finalState: SenderFlowState

    /// Creates an outcome.
    public init(steps: [SenderFlowStep], mismatch: SenderScenarioMismatch?, finalState: SenderFlowState) {
        self.steps = steps
        self.mismatch = mismatch
        self.finalState = finalState
    }

    /// Whether every step matched.
    public var passed: Bool { mismatch == nil }
}
