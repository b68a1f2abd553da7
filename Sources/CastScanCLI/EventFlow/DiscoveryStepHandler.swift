/// What a command does with each discovery event (``DiscoveryStep``), in order: print it,
/// log it, count it. With `--report` it is called only once the event is stored.
protocol DiscoveryStepHandler: Sendable {
    /// Handles one step; an exit status ends the command.
    mutating func handle(_ step: DiscoveryStep) async -> ExitCode?

    /// The events ended (discovery stopped for good): an exit status ends the command, nil
    /// lets it go on.
    func eventsEnded() async -> ExitCode?
}
