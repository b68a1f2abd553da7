/// What a ``WaitableQueue`` keeps: its elements and the policy that keeps them (how many, and
/// what happens when it is full).
package protocol WaitableQueueStorage: Sendable {
    associatedtype Element: Sendable
    /// Takes the next element out; nil when there is none now.
    mutating func take() -> Element?
    /// Whether no element will come any more once ``take()`` gives nil.
    var isEnded: Bool { get }
}

/// A queue behind a lock that readers await elements from, and writers await room in: every
/// change is made through ``update(_:)``, after which each waiting reader that can take an
/// element gets it, and each writer whose condition now holds goes on. Nothing is called while
/// the lock is held but the storage's own methods.
package final class WaitableQueue<Storage: WaitableQueueStorage>: Sendable {
    private struct Inner: Sendable {
        var storage: Storage
        var readers: [(id: Int, continuation: CheckedContinuation<Storage.Element?, Never>)] = []
        var writers: [(id: Int, ready: @Sendable (Storage) -> Bool, continuation: CheckedContinuation<Void, Never>)] =
            []
        var nextID = 0

        /// Hands out what the storage allows now: the resumptions to make once unlocked.
        mutating func wake() -> [@Sendable () -> Void] {
            var resumptions: [@Sendable () -> Void] = []
            while !readers.isEmpty {
                if let element = storage.take() {
                    let reader = readers.removeFirst().continuation
                    resumptions.append { reader.resume(returning: element) }
                } else if storage.isEnded {
                    let ended = readers.map(\.continuation)
                    readers = []
                    resumptions.append { ended.forEach { $0.resume(returning: nil) } }
                } else {
                    break
                }
            }
            guard !writers.isEmpty else { return resumptions }
            let storage = self.storage
            let (ready, waiting) = (writers.filter { $0.ready(storage) }, writers.filter { !$0.ready(storage) })
            writers = waiting
            for writer in ready { resumptions.append { writer.continuation.resume() } }
            return resumptions
        }
    }

    private let inner: LockedValue<Inner>

    package init(_ storage: Storage) {
        inner = LockedValue(Inner(storage: storage))
    }

    /// Changes the storage, then wakes the readers and writers the change lets go on.
    @discardableResult
    package func update<Result: Sendable>(_ change: (inout Storage) -> Result) -> Result {
        let (result, resumptions) = inner.withLock { inner in
            let result = change(&inner.storage)
            return (result, inner.wake())
        }
        resumptions.forEach { $0() }
        return result
    }

    /// Reads the storage.
    package func read<Result: Sendable>(_ body: (Storage) -> Result) -> Result {
        inner.withLock { body($0.storage) }
    }

    /// The next element, once there is one; nil when the queue has ended or the calling task is
    /// cancelled.
    package func next() async -> Storage.Element? {
        let id: Int
        // At once when an element is there (the common case: no continuation to make).
        let (immediate, resumptions): (Storage.Element??, [@Sendable () -> Void]) = inner.withLock { inner in
            if let element = inner.storage.take() { return (.some(element), inner.wake()) }
            if inner.storage.isEnded { return (.some(nil), []) }
            return (nil, [])
        }
        resumptions.forEach { $0() }
        if let immediate { return immediate }
        id = inner.withLock { inner in
            inner.nextID += 1
            return inner.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Storage.Element?, Never>) in
                let (answer, resumptions): (Storage.Element??, [@Sendable () -> Void]) = inner.withLock { inner in
                    // Cancellation is flagged before its handler runs: a handler that ran before
                    // this found nothing to resume, so this must not wait.
                    if Task.isCancelled { return (.some(nil), []) }
                    if let element = inner.storage.take() { return (.some(element), inner.wake()) }
                    if inner.storage.isEnded { return (.some(nil), []) }
                    inner.readers.append((id, continuation))
                    return (nil, [])
                }
                resumptions.forEach { $0() }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let reader = inner.withLock { inner -> CheckedContinuation<Storage.Element?, Never>? in
                guard let index = inner.readers.firstIndex(where: { $0.id == id }) else { return nil }
                return inner.readers.remove(at: index).continuation
            }
            reader?.resume(returning: nil)
        }
    }

    /// Returns once `ready` holds for the storage, or the calling task is cancelled.
    package func wait(until ready: @escaping @Sendable (Storage) -> Bool) async {
        let id = inner.withLock { inner in
            inner.nextID += 1
            return inner.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let goOn = inner.withLock { inner in
                    if Task.isCancelled || ready(inner.storage) { return true }
                    inner.writers.append((id, ready, continuation))
                    return false
                }
                if goOn { continuation.resume() }
            }
        } onCancel: {
            let writer = inner.withLock { inner -> CheckedContinuation<Void, Never>? in
                guard let index = inner.writers.firstIndex(where: { $0.id == id }) else { return nil }
                return inner.writers.remove(at: index).continuation
            }
            writer?.resume()
        }
    }
}
