extension AsyncStream {
    /// A stream that takes each element from `queue` when its consumer asks for one, so the
    /// queue's own policy is the only buffer. `ended` runs once, when the consumer is done: it
    /// read the end, its task was cancelled while it waited, or it let go of the stream.
    static func pulling<Storage: WaitableQueueStorage>(
        from queue: WaitableQueue<Storage>, ended: @escaping @Sendable () -> Void
    ) -> AsyncStream<Element> where Storage.Element == Element {
        pulling(from: queue, { $0 }, ended: ended)
    }

    /// A stream like ``pulling(from:ended:)`` whose elements are `transform` of the queue's.
    static func pulling<Storage: WaitableQueueStorage>(
        from queue: WaitableQueue<Storage>, _ transform: @escaping @Sendable (Storage.Element) -> Element,
        ended: @escaping @Sendable () -> Void
    ) -> AsyncStream<Element> {
        let lifetime = StreamLifetime(ended)
        // The stream keeps this closure until it ends for its consumer (it returned nil, or the
        // task was cancelled) or is released; the lifetime goes with it.
        return AsyncStream(unfolding: { [lifetime] in
            withExtendedLifetime(lifetime) {}
            return await queue.next().map(transform)
        })
    }
}

/// Runs its closure when it is released: when the stream that holds it is done.
private final class StreamLifetime: Sendable {
    private let ended: @Sendable () -> Void

    init(_ ended: @escaping @Sendable () -> Void) {
        self.ended = ended
    }

    deinit {
        ended()
    }
}
