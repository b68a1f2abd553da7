import Glibc

/// A value that one thread at a time reads or changes: the project's lock.
///
/// It is the standard library's `Mutex` in use (`withLock`), kept behind a POSIX
/// `pthread_mutex_t`, whose ordering ThreadSanitizer knows: on Linux the sanitizer does not see
/// `Mutex`'s futex, so under `Mutex` a sanitized run reports every guarded access as a race and
/// hides the real ones among them.
package final class LockedValue<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock around `initialValue`.
    package init(_ initialValue: consuming sending Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        // A default mutex's initialisation cannot fail on Linux (it allocates nothing).
        pthread_mutex_init(mutex, nil)
        value = initialValue
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` on the value while holding the lock, and returns what it returns.
    package func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
