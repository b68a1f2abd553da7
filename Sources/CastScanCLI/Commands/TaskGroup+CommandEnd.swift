/// How a long-running command (`watch`, `serve`) ends: the first of its tasks to give an exit
/// status, or a signal (which ends it with 0).
extension TaskGroup where ChildTaskResult == ExitCode? {
    /// Adds the task that ends the command with 0 on the first of `signals`.
    mutating func endOnSignal(_ signals: AsyncStream<Int32>) {
        addTask {
            for await _ in signals { return .ok }
            return nil
        }
    }

    /// Waits for the first task that gives an exit status, cancels the others and returns it
    /// (0 when every task ended without one).
    mutating func firstExit() async -> ExitCode {
        var result: ExitCode = .ok
        for await exit in self {
            if let exit { result = exit; break }
        }
        cancelAll()
        return result
    }
}
