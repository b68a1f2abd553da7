import Dispatch

/// The serial executor an ``EventReporter`` runs on: a dispatch queue of its own, so that the
/// spool's writes and syncs to disk hold one of its threads, never one of the shared
/// concurrency pool's (which has one thread a core: two on a two-core machine).
final class SpoolExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
