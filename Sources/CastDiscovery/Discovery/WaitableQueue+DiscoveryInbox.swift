extension WaitableQueue where Storage == DiscoveryInbox {
    /// Queues an application request or a timer's input; never waits.
    func post(_ input: DiscoveryLoop.Input) {
        update { $0.post(input) }?.resume(returning: nil)
    }

    /// Queues a backend event, waiting while ``DiscoveryInbox/backendCapacity`` wait; lets it go
    /// when the calling task (the run's reader) is cancelled.
    func send(_ input: DiscoveryLoop.Input) async {
        while !Task.isCancelled {
            if update({ $0.postBackend(input) }) { return }
            await wait { $0.hasRoomForBackend }
        }
    }

    /// Ends the inbox: the loop takes what waits, then ends.
    func finish() {
        update { $0.finished = true }
    }
}
