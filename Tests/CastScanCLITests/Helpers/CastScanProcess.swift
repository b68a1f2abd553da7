import Foundation
import Synchronization
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
        [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home.path,
            "XDG_STATE_HOME": home.appendingPathComponent("state").path,
            "LANG": "C.UTF-8",
        ]
    }

    /// Runs `cast-scan arguments` to its end and returns what it did. A child still running
    /// after `timeout` is killed, and the result says so.
    static func run(_ arguments: [String], timeout: Duration = .seconds(30)) async throws -> ProcessResult {
        let child = try start(arguments)
        return await child.wait(timeout: timeout)
    }

    /// Starts `cast-scan arguments` and returns at once.
    static func start(_ arguments: [String]) throws -> RunningProcess {
        try RunningProcess(executable: try executable(), arguments: arguments)
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
    var elapsed: Duration

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
        return "cast-scan \(arguments.joined(separator: " ")) -> \(how)\n--- stdout ---\n\(stdout)--- stderr ---\n\(stderr)"
    }
}

/// A child process of the executable, with its output in files.
final class RunningProcess: Sendable {
    let arguments: [String]
    let directory: TestDirectory
    private let process: Process
    private let termination: AsyncStream<(Int32, Bool)>
    private let started: ContinuousClock.Instant
    private let timedOut = Mutex(false)

    var stdoutURL: URL { directory.url.appendingPathComponent("stdout") }
    var stderrURL: URL { directory.url.appendingPathComponent("stderr") }
    var processIdentifier: Int32 { process.processIdentifier }

    fileprivate init(executable: URL, arguments: [String]) throws {
        self.arguments = arguments
        directory = try TestDirectory(prefix: "cast-scan-run")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = CastScanProcess.environment(home: directory.url.appendingPathComponent("home"))
        process.currentDirectoryURL = directory.url
        try Data().write(to: directory.url.appendingPathComponent("stdout"))
        try Data().write(to: directory.url.appendingPathComponent("stderr"))
        let out = try FileHandle(forWritingTo: directory.url.appendingPathComponent("stdout"))
        let err = try FileHandle(forWritingTo: directory.url.appendingPathComponent("stderr"))
        defer {
            try? out.close()
            try? err.close()
        }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        let (stream, continuation) = AsyncStream.makeStream(of: (Int32, Bool).self, bufferingPolicy: .bufferingNewest(1))
        process.terminationHandler = { process in
            continuation.yield((process.terminationStatus, process.terminationReason == .exit))
            continuation.finish()
        }
        termination = stream
        started = ContinuousClock.now
        self.process = process
        try process.run()
    }

    /// Standard output written so far.
    func currentStdout() -> Data { (try? Data(contentsOf: stdoutURL)) ?? Data() }

    /// Waits until standard output holds at least one whole line; false if the child ended or
    /// `timeout` passed first.
    func waitForFirstLine(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if currentStdout().contains(UInt8(ascii: "\n")) { return true }
            if !process.isRunning { return currentStdout().contains(UInt8(ascii: "\n")) }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        _ = kill(process.processIdentifier, signal)
    }

    /// Waits for the child to end (killing it after `timeout`) and returns what it did.
    func wait(timeout: Duration = .seconds(30)) async -> ProcessResult {
        let pid = process.processIdentifier
        let killer = Task { [self] in
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            self.timedOut.withLock { $0 = true }
            _ = kill(pid, SIGKILL)
        }
        var outcome: (Int32, Bool) = (-1, false)
        for await value in termination {
            outcome = value
            break
        }
        killer.cancel()
        let elapsed = ContinuousClock.now - started
        return ProcessResult(
            arguments: arguments, status: outcome.0, exitedNormally: outcome.1,
            timedOut: timedOut.withLock { $0 },
            stdoutData: (try? Data(contentsOf: stdoutURL)) ?? Data(),
            stderrData: (try? Data(contentsOf: stderrURL)) ?? Data(),
            elapsed: elapsed)
    }
}
