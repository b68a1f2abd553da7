extension WaitableQueue where Storage == DiscoveryInbox {
    /// Queues an application request or a timer's input; never waits.
    func post(_ input: DiscoveryLoop.Input) {
        update { $0.post(input) }?.resume(returning: nil)
    }

    /// Ends the inbox: the loop takes what waits, then ends.
    func finish() {
        update { $0.finished = true }
    }
}
