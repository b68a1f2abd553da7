import CastDiscovery
import CastTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the built `cast-scan` executable as a child process, the way a user or a script does,
/// and captures its standard output, standard error and exit status.
///
/// Output goes to files in a private directory rather than pipes, so a child that writes a lot
/// can never block on a full pipe, and the whole output is there once the child has exited.
/// The child is started with `posix_spawn` and waited for with `wait4` on a thread of its own,
/// so its exit time and peak memory are its own, whatever the test process is busy with.
enum CastScanProcess {
    /// Why the executable could not be found: every place looked at, so the failure says what
    /// to build or set.
    struct NotFound: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "the cast-scan executable was not found; build it with "
                + "`swift build --build-tests` (it must sit in the build products directory beside the test bundle) "
                + "or set CAST_SCAN_BINARY. Looked in:\n  " + searched.joined(separator: "\n  ")
        }
    }

    /// The executable, found once: `$CAST_SCAN_BINARY`, else the nearest directory holding an
    /// executable `cast-scan` at or above the running test bundle: the build products
    /// directory of the same build, whatever the scratch path.
    static func executable() throws -> URL {
        try located.get()
    }

    private static let located: Result<URL, NotFound> = {
        let environment = ProcessInfo.processInfo.environment
        var searched: [String] = []
        func isExecutable(_ url: URL) -> Bool {
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
                && !isDirectory.boolValue && FileManager.default.isExecutableFile(atPath: url.path)
        }
        if let explicit = environment["CAST_SCAN_BINARY"], !explicit.isEmpty {
            let url = URL(fileURLWithPath: explicit)
            if isExecutable(url) { return .success(url) }
            return .failure(NotFound(searched: ["$CAST_SCAN_BINARY=\(explicit) (not an executable file)"]))
        }
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        var starts: [URL] = []
        if let first = CommandLine.arguments.first, !first.isEmpty {
            starts.append(URL(fileURLWithPath: first, relativeTo: cwd).standardizedFileURL.resolvingSymlinksInPath())
        }
        if let url = Bundle.main.executableURL { starts.append(url.resolvingSymlinksInPath()) }
        starts.append(Bundle.main.bundleURL.resolvingSymlinksInPath())
        for start in starts {
            var directory = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("cast-scan")
                searched.append(candidate.path)
                if isExecutable(candidate) { return .success(candidate) }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        // No fallback to the package's own `.build`: a binary from another build would test
        // other code than the one under test.
        return .failure(NotFound(searched: searched))
    }()

    /// The environment of every child: no terminal settings, and a private home, so nothing
    /// the tool might write by default lands in the real one.
    static func environment(home: URL) -> [String: String] {
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home.path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path,
            "LANG": "C.UTF-8",
        ]
        // A build with coverage (swift test --enable-code-coverage): every child's counts merge
        // into one profile beside the tests' own, which swift test merges with theirs; without
        // it, each child would write default.profraw into its working directory.
        if let tests = ProcessInfo.processInfo.environment["LLVM_PROFILE_FILE"] {
            environment["LLVM_PROFILE_FILE"] =
                tests.hasSuffix(".profraw")
                ? URL(fileURLWithPath: tests).deletingLastPathComponent().appendingPathComponent("cast-scan%m.profraw")
                    .path
                : tests
        }
        return environment
    }

    /// How long a child runs by default before it is killed (and its result says it timed
    /// out): a guard against a hang, not a speed bound; a parallel test run on two loaded cores
    /// stretches a command of a second to tens of seconds.
    static let hangLimit: Duration = .seconds(300)

    /// Runs `cast-scan arguments` to its end and returns what it did. A child still running
    /// after `timeout` is killed, and the result says so.
    static func run(_ arguments: [String], timeout: Duration = CastScanProcess.hangLimit) async throws -> ProcessResult
    {
        let child = try start(arguments)
        return await child.wait(timeout: timeout)
    }

    /// Runs `cast-scan arguments` under GNU time (`/usr/bin/time`, installed by `Scripts/setup`),
    /// so `peakResidentBytes` is the child's own peak: `wait4` alone would report the test
    /// process's memory, which a child started with `posix_spawn` inherits the accounting of.
    static func runMeasured(_ arguments: [String], timeout: Duration = CastScanProcess.hangLimit) async throws
        -> ProcessResult
    {
        let time = "/usr/bin/time"
        guard FileManager.default.isExecutableFile(atPath: time) else {
            throw NotFound(searched: ["\(time) (GNU time, needed to measure memory; run Scripts/setup)"])
        }
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("cast-scan-rss-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: report) }
        let child = try RunningProcess(
            executable: URL(fileURLWithPath: time),
            arguments: ["-f", "%M", "-o", report, try executable().path] + arguments)
        var result = await child.wait(timeout: timeout)
        result.arguments = arguments
        let lines = (try? String(contentsOfFile: report, encoding: .utf8))?.split(separator: "\n") ?? []
        result.peakResidentBytes = lines.last.flatMap { Int($0) }.map { $0 * 1024 } ?? Int.max
        return result
    }

    /// Runs `cast-scan arguments` with `environment` added to the child's environment.
    static func run(_ arguments: [String], environment: [String: String], timeout: Duration = CastScanProcess.hangLimit)
        async throws
        -> ProcessResult
    {
        let child = try RunningProcess(
            executable: try executable(), arguments: arguments, extraEnvironment: environment)
        return await child.wait(timeout: timeout)
    }

    /// Runs `cast-scan arguments` with `file` as its standard input.
    static func run(_ arguments: [String], standardInput file: String, timeout: Duration = CastScanProcess.hangLimit)
        async throws
        -> ProcessResult
    {
        let child = try RunningProcess(executable: try executable(), arguments: arguments, standardInput: file)
        return await child.wait(timeout: timeout)
    }

    /// Starts `cast-scan arguments` and returns at once.
    static func start(_ arguments: [String]) throws -> RunningProcess {
        try RunningProcess(executable: try executable(), arguments: arguments)
    }

    /// Starts `cast-scan arguments` with its standard output a pipe that only the test reads
    /// (``RunningProcess/readPipe(atMost:)``), or leaves full: a reader that is slow or stalled.
    /// `measured`: under GNU time, for the child's peak memory (then signals reach `time`, not
    /// the child: only for a child that ends by itself).
    static func startPiped(_ arguments: [String], measured: Bool = false) throws -> RunningProcess {
        let time = "/usr/bin/time"
        if measured, !FileManager.default.isExecutableFile(atPath: time) {
            throw NotFound(searched: ["\(time) (GNU time, needed to measure memory; run Scripts/setup)"])
        }
        return try RunningProcess(
            executable: try executable(), arguments: arguments, pipedOutput: true, measuredBy: measured ? time : nil)
    }

    /// Runs `script` with `bash -c` (its `$1`... are `arguments`), with `$CAST_SCAN` naming the
    /// executable: for what needs a shell, such as closed or redirected descriptors.
    static func runScript(_ script: String, _ arguments: [String] = [], timeout: Duration = CastScanProcess.hangLimit)
        async throws
        -> ProcessResult
    {
        let child = try RunningProcess(
            executable: URL(fileURLWithPath: "/bin/bash"), arguments: ["-c", script, "bash"] + arguments,
            extraEnvironment: ["CAST_SCAN": try executable().path])
        return await child.wait(timeout: timeout)
    }
}

/// What one run of the executable did.
struct ProcessResult: Sendable, CustomStringConvertible {
    var arguments: [String]
    /// The exit status; meaningful only when `exitedNormally`.
    var status: Int32
    /// False when the child ended by a signal (a crash, or the timeout's SIGKILL).
    var exitedNormally: Bool
    var timedOut: Bool
    var stdoutData: Data
    var stderrData: Data
    /// From the spawn to the child's exit, as its waiting thread saw it.
    var elapsed: Duration
    /// When the child exited, as its waiting thread saw it.
    var ended: ContinuousClock.Instant
    /// The CPU time the child used (user and system, from `wait4`): its work, whatever else the
    /// machine was doing.
    var cpuTime: Duration
    /// The child's peak resident set size, in bytes: meaningful only from
    /// ``CastScanProcess/runMeasured(_:timeout:)``.
    var peakResidentBytes: Int

    var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
    var stderr: String { String(decoding: stderrData, as: UTF8.self) }
    /// Standard output split into lines (a final newline does not make an empty last line).
    var stdoutLines: [String] { Self.lines(stdout) }
    /// Standard error split into lines.
    var stderrLines: [String] { Self.lines(stderr) }

    /// The exit status of a normal exit; nil after a signal or the timeout.
    var exitCode: Int32? { exitedNormally && !timedOut ? status : nil }

    static func lines(_ text: String) -> [String] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    var description: String {
        let how = timedOut ? "timed out" : exitedNormally ? "exit \(status)" : "signal \(status)"
        return
            "cast-scan \(arguments.joined(separator: " ")) -> \(how) after \(elapsed), \(peakResidentBytes / 1024) KiB\n"
            + "--- stdout ---\n\(stdout)--- stderr ---\n\(stderr)"
    }
}

/// A child process of the executable, with its output in files.
final class RunningProcess: Sendable {
    /// How the child ended, from `wait4`.
    private struct Exit: Sendable {
        var status: Int32
        var ended: ContinuousClock.Instant
        var peakResidentBytes: Int
        var cpuTime: Duration
    }

    let arguments: [String]
    let directory: TestDirectory
    let processIdentifier: pid_t
    private let started: ContinuousClock.Instant
    private let exit = LockedValue<Exit?>(nil)
    private let waiters = LockedValue<[CheckedContinuation<Void, Never>]>([])
    private let timedOut = LockedValue(false)
    /// The read end of the standard output pipe (-1 when standard output is a file), and what
    /// the test has read from it.
    private let pipeReadEnd: Int32
    private let piped = LockedValue<(bytes: Data, open: Bool)>((Data(), true))

    var stdoutURL: URL { directory.url.appendingPathComponent("stdout") }
    var stderrURL: URL { directory.url.appendingPathComponent("stderr") }
    /// Where GNU time writes the peak memory, for a child started by ``CastScanProcess/startPiped(_:measured:)``.
    var timeReportPath: String { directory.path("time-report") }

    /// `pipedOutput`: standard output is a pipe the test reads (or does not) instead of a file.
    /// `measuredBy`: GNU time's path, to run the executable under it for its peak memory.
    init(
        executable: URL, arguments: [String], extraEnvironment: [String: String] = [:],
        standardInput: String = "/dev/null",
        pipedOutput: Bool = false, measuredBy time: String? = nil
    ) throws {
        self.arguments = arguments
        directory = try TestDirectory(prefix: "cast-scan-run")
        var executable = executable
        var arguments = arguments
        if let time {
            arguments = ["-f", "%M", "-o", directory.path("time-report"), executable.path] + arguments
            executable = URL(fileURLWithPath: time)
        }
        let home = directory.url.appendingPathComponent("home")
        let environment = CastScanProcess.environment(home: home).merging(extraEnvironment) { _, extra in extra }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, standardInput, O_RDONLY, 0)
        var ends: [Int32] = [-1, -1]
        if pipedOutput {
            guard pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
            // Close-on-exec, so other children do not hold an end open (the child gets its own
            // copy of the write end as descriptor 1).
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
            posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, directory.path("stdout"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        pipeReadEnd = ends[0]
        defer { if ends[1] >= 0 { close(ends[1]) } }
        posix_spawn_file_actions_addopen(&actions, 2, directory.path("stderr"), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        // The child starts as from a shell: no signal blocked, none ignored. The spawning thread
        // may be one of the test runtime's, which block signals; a child that inherited that
        // mask never saw the SIGTERM that was to end it (dbus-daemon outlived its test).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        started = ContinuousClock.now
        let result = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            if ends[0] >= 0 { close(ends[0]) }
            throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO)
        }
        processIdentifier = pid
        let child = pid
        Thread.detachNewThread { [self] in
            var status: Int32 = 0
            var usage = rusage()
            while wait4(child, &status, 0, &usage) < 0, errno == EINTR {}
            let ended = ContinuousClock.now
            let cpu =
                Duration.seconds(Int64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec))
                + .microseconds(Int64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec))
            exit.withLock {
                $0 = Exit(status: status, ended: ended, peakResidentBytes: Int(usage.ru_maxrss) * 1024, cpuTime: cpu)
            }
            for waiter in waiters.withLock({ list in
                defer { list = [] }; return list
            }) { waiter.resume() }
        }
    }

    deinit {
        closePipe()
    }

    /// Whether the child is still running.
    var isRunning: Bool { exit.withLock { $0 == nil } }

    /// Reads at most `limit` bytes of what the standard output pipe holds now; returns how many.
    @discardableResult
    func readPipe(atMost limit: Int = .max) -> Int {
        piped.withLock { piped in
            guard piped.open else { return 0 }
            var total = 0
            var buffer = [UInt8](repeating: 0, count: 65536)
            while total < limit {
                let count = buffer.withUnsafeMutableBytes {
                    read(pipeReadEnd, $0.baseAddress, min($0.count, limit - total))
                }
                guard count > 0 else { break }
                piped.bytes.append(contentsOf: buffer[..<count])
                total += count
            }
            return total
        }
    }

    /// Reads the standard output pipe as the child writes to it until the child ends: a reader
    /// that keeps up. From a thread of its own, which waits in `poll` for data.
    func readPipeToEnd() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread { [self] in
                while isRunning {
                    var ready = pollfd(fd: pipeReadEnd, events: Int16(POLLIN), revents: 0)
                    // The timeout only to see the child's end: its pipe's write end may live on
                    // in a process it started.
                    _ = poll(&ready, 1, 100)
                    readPipe()
                }
                continuation.resume()
            }
        }
    }

    /// The bytes the standard output pipe holds, unread.
    var pipeFill: Int {
        var count: Int32 = 0
        let asked = piped.withLock { piped in
            piped.open && withUnsafeMutablePointer(to: &count) { ioctl(pipeReadEnd, UInt(FIONREAD), $0) } == 0
        }
        return asked ? Int(count) : 0
    }

    /// How many bytes the standard output pipe holds when full.
    var pipeCapacity: Int {
        let getPipeSize: Int32 = 1032  // F_GETPIPE_SZ (Linux), not in the Glibc module
        return piped.withLock { $0.open ? Int(fcntl(pipeReadEnd, getPipeSize)) : 0 }
    }

    /// Waits until the standard output pipe is full (the child's next write blocks: a write of
    /// up to `PIPE_BUF`, 4096 bytes, waits until it fits whole); false if the child ended or
    /// `timeout` passed first. Checked from a thread of its own (``Eventually``).
    func waitForFullPipe(timeout: Duration) async -> Bool {
        let capacity = pipeCapacity
        return await Eventually.wait(timeout: timeout, giveUpIf: { [self] in !isRunning }) { [self] in
            capacity > 0 && pipeFill > capacity - 4096
        }
    }

    /// Sends `signal` once the standard output pipe is full and a thread of the child is blocked
    /// writing to it (`write(1, …)` in `/proc/PID/task/*/syscall`, seen twice 20 ms apart), so
    /// at least one line is still the child's; checked from a thread of its own, which sends at
    /// once. Returns when, or nil if the child ended or `timeout` passed first.
    func send(_ signal: Int32, onceWriteBlocksWithin timeout: Duration) async -> ContinuousClock.Instant? {
        guard await waitForFullPipe(timeout: timeout) else { return nil }
        let seen = LockedValue(0)
        return await Eventually.when(
            { [self] in
                let writing = isWritingStandardOutput
                return seen.withLock { seen in
                    seen = writing ? seen + 1 : 0
                    return seen == 2
                }
            }, giveUpIf: { [self] in !isRunning }, timeout: timeout, interval: .milliseconds(20)
        ) { [self] in send(signal) }
    }

    /// Whether a thread of the child is in `write(1, …)` now.
    private var isWritingStandardOutput: Bool {
        #if arch(x86_64)
        let write = "1"
        #elseif arch(arm64)
        let write = "64"
        #else
        let write = "?"
        #endif
        let tasks = "/proc/\(processIdentifier)/task"
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
        return threads.contains { thread in
            let call = (try? String(contentsOfFile: "\(tasks)/\(thread)/syscall", encoding: .utf8)) ?? ""
            return call.split(separator: " ").prefix(2) == [Substring(write), "0x1"]
        }
    }

    private func closePipe() {
        piped.withLock { piped in
            if piped.open, pipeReadEnd >= 0 { close(pipeReadEnd) }
            piped.open = false
        }
    }

    /// Standard output written so far.
    func currentStdout() -> Data { (try? Data(contentsOf: stdoutURL)) ?? Data() }

    /// Standard error written so far.
    func currentStderr() -> String { String(decoding: (try? Data(contentsOf: stderrURL)) ?? Data(), as: UTF8.self) }

    /// Whether standard output holds at least one whole line.
    var hasPrintedALine: Bool { currentStdout().contains(UInt8(ascii: "\n")) }

    /// Waits until standard output holds at least one whole line, checked from a thread of its
    /// own (``Eventually``); false if the child ended or `timeout` passed first.
    func waitForFirstLine(timeout: Duration) async -> Bool {
        await Eventually.wait(timeout: timeout, giveUpIf: { [self] in !isRunning }) { [self] in hasPrintedALine }
    }

    /// Runs `action` as soon as `condition` holds, checked about every millisecond from a thread
    /// of its own (``Eventually``), so a starved test pool cannot make it late; returns when it
    /// ran, or nil if the child ended or `timeout` passed first.
    func run(
        when condition: @escaping @Sendable () -> Bool, timeout: Duration = .seconds(600),
        _ action: @escaping @Sendable () -> Void
    ) async -> ContinuousClock.Instant? {
        await Eventually.when(condition, giveUpIf: { [self] in !isRunning }, timeout: timeout, do: action)
    }

    /// Sends `signal` as soon as standard output holds a whole line (checked as
    /// ``run(when:timeout:_:)`` does); returns when, or nil if the child ended or `timeout`
    /// passed first.
    func send(_ signal: Int32, afterFirstLineWithin timeout: Duration) async -> ContinuousClock.Instant? {
        await run(when: { [self] in hasPrintedALine }, timeout: timeout) { [self] in send(signal) }
    }

    /// Sends `signal` to the child, unless it has already been waited for; returns when.
    @discardableResult
    func send(_ signal: Int32) -> ContinuousClock.Instant {
        if isRunning { _ = kill(processIdentifier, signal) }
        return .now
    }

    /// Waits for the child to end (killing it after `timeout`) and returns what it did.
    func wait(timeout: Duration = CastScanProcess.hangLimit) async -> ProcessResult {
        let killer = Task { [self] in
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled, isRunning else { return }
            timedOut.withLock { $0 = true }
            send(SIGKILL)
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = exit.withLock { $0 != nil }
            if done {
                continuation.resume()
            } else {
                waiters.withLock { $0.append(continuation) }
                // The child may have ended between the check and the append.
                if exit.withLock({ $0 != nil }) {
                    for waiter in waiters.withLock({ list in
                        defer { list = [] }; return list
                    }) { waiter.resume() }
                }
            }
        }
        killer.cancel()
        let ended = exit.withLock { $0! }
        let exited = ended.status & 0x7F == 0
        var stdout = (try? Data(contentsOf: stdoutURL)) ?? Data()
        if pipeReadEnd >= 0 {
            // The child is gone: what it wrote is in the pipe, up to its end.
            readPipe()
            stdout = piped.withLock { $0.bytes }
            closePipe()
        }
        var peak = ended.peakResidentBytes
        if let report = try? String(contentsOfFile: timeReportPath, encoding: .utf8) {
            peak = report.split(separator: "\n").last.flatMap { Int($0) }.map { $0 * 1024 } ?? Int.max
        }
        return ProcessResult(
            arguments: arguments, status: exited ? (ended.status >> 8) & 0xFF : ended.status & 0x7F,
            exitedNormally: exited,
            timedOut: timedOut.withLock { $0 },
            stdoutData: stdout,
            stderrData: (try? Data(contentsOf: stderrURL)) ?? Data(),
            elapsed: ended.ended - started, ended: ended.ended, cpuTime: ended.cpuTime, peakResidentBytes: peak)
    }
}
