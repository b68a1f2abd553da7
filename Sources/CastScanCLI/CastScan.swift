#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CastDiscovery
import Dispatch
import FoundationEssentials
import Synchronization

/// The `cast-scan` tool: parses the command line and runs the chosen command.
public enum CastScan {
    /// Runs `cast-scan` with `arguments` (without the program name) and returns its exit status.
    ///
    /// When standard output stops taking text, the command ends: a reader that went away (a
    /// closed pipe, `cast-scan watch | head -1`) ends it quietly with the status it had (0 for a
    /// watch); any other failure (a full disk, a closed descriptor) prints one line on standard
    /// error and returns ``ExitCode/ioError`` (74).
    ///
    /// A command's output waits for a slow reader before the process ends; `SIGINT` or
    /// `SIGTERM` ends it within `signalGracePeriod` (half a second) whatever standard output is doing, the
    /// output still queued dropped and said (130 or 143; 0 for `watch`). Call it from the
    /// process's main code, with the console of ``Console/standard(environment:)``: it catches
    /// the signals from its first line on, and may end the process itself.
    ///
    /// `wallClock` gives the time of day: the time a device-authentication check is made at.
    public static func run(
        arguments: [String], environment: [String: String], console: Console,
        wallClock: @escaping @Sendable () -> Date
    ) async -> ExitCode {
        SignalStream.install()
        endAfterGracePeriod(console: console)
        var status = await runCommand(
            arguments: arguments, environment: environment, console: console, wallClock: wallClock)
        if await !console.outputWritten(), let signal = SignalStream.caught {
            status = Self.status(status, endedBy: signal)
        }
        console.abandonOutput()
        switch console.outputFailure {
        case nil, .closed?:
            break
        case let failure?:
            console.errorLine("cast-scan: cannot write to standard output: \(failure.message)")
            status = .ioError
        }
        await console.errorsWritten()
        return status
    }

    /// How long a command has after the first `SIGINT` or `SIGTERM` to end by itself (a watch
    /// commits its spool, the output still queued is dropped); then the process ends anyway,
    /// whatever it is blocked in (a host name look-up, a stalled reader). A second signal ends
    /// it at once.
    static let signalGracePeriod: DispatchTimeInterval = .milliseconds(500)

    /// Whether a signal ends the command in hand with its own status (`watch`: 0) rather than
    /// 130 or 143; set once the command line is parsed.
    private static let signalEndsCleanly = Atomic(false)

    /// A failure a command has decided on while it still ends (a watch whose spool is full,
    /// then finishing its reporter): the status the grace period ends the process with, not 0.
    private static let decidedFailure = Atomic<Int32>(0)

    /// Records that the command in hand ends with `status`, which a signal's grace period then
    /// keeps (when it is a failure).
    static func decide(_ status: ExitCode) {
        if status != .ok { decidedFailure.store(status.rawValue, ordering: .relaxed) }
    }

    /// The status of a command that had `status` when `signal` ended it: a failure it had
    /// decided on, else its own status (watch) or 130/143.
    private static func status(_ status: ExitCode, endedBy signal: Int32) -> ExitCode {
        let decided = decidedFailure.load(ordering: .relaxed)
        if decided != 0, let failure = ExitCode(rawValue: decided) { return failure }
        if signalEndsCleanly.load(ordering: .relaxed) { return status }
        return signal == SIGINT ? .interrupted : .terminated
    }

    /// Ends the process ``signalGracePeriod`` after the first signal, unless it has ended by
    /// then: the output still queued dropped and said. The thread is made now, so it needs
    /// nothing at the signal, and it blocks only itself, so neither a blocked concurrency pool
    /// nor a stalled reader can hold it. Without a thread, the command's own end is all there is.
    private static func endAfterGracePeriod(console: Console) {
        let caught = DispatchSemaphore(value: 0)
        do throws(LoopThread.Failure) {
            try LoopThread.start {
                caught.wait()
                _ = DispatchSemaphore(value: 0).wait(timeout: .now() + signalGracePeriod)
                console.abandonNow()
                // _exit: no exit handlers, which could wait on a lock a blocked thread holds.
                _exit(status(.ok, endedBy: SignalStream.caught ?? SIGTERM).rawValue)
            }
        } catch {
            return
        }
        SignalStream.whenCaught { _ in caught.signal() }
    }

    /// Runs `command` until it ends or a termination signal comes (130 for `SIGINT`, 143 for
    /// `SIGTERM`, as a shell reports a process the signal killed).
    private static func run(_ command: any Command, endingOn termination: AsyncStream<Int32>) async throws -> ExitCode {
        try await withThrowingTaskGroup(of: ExitCode?.self) { group in
            group.addTask { try await command.run() }
            group.addTask {
                for await signal in termination { return signal == SIGINT ? .interrupted : .terminated }
                return nil
            }
            var status: ExitCode = .ok
            for try await outcome in group {
                if let outcome {
                    status = outcome
                    break
                }
            }
            group.cancelAll()
            return status
        }
    }

    /// For packagers (`make deb`, `make install`): `--generate-man-page` prints `cast-scan(1)`,
    /// `--generate-completion bash|zsh` a completion script, both from the same declarations
    /// as `--help`. Not options of any command, so neither lists them.
    static func generatedReference(_ arguments: [String]) -> String? {
        switch arguments.first {
        case "--generate-man-page" where arguments.count == 1:
            return ManPage.text(root: root.declarationTree)
        case "--generate-completion" where arguments.count == 2:
            return ShellCompletion.Shell(rawValue: arguments[1]).map {
                ShellCompletion.script(for: $0, root: root.declarationTree)
            }
        default:
            return nil
        }
    }

    /// The root command, whose type holds the whole command tree.
    static var root: any Command.Type { ListCommand.self }

    private static func runCommand(
        arguments: [String], environment: [String: String], console: Console, wallClock: @escaping @Sendable () -> Date
    ) async -> ExitCode {
        if let generated = generatedReference(arguments) {
            console.write(generated)
            return .ok
        }
        let parser = ArgumentParser(command: root.declarationTree)
        let parsed: ParsedArguments
        do {
            parsed = try parser.parse([root.declaration.name] + arguments)
        } catch {
            console.errorLine("cast-scan: \(error.message)")
            console.errorLine("Run 'cast-scan --help' for usage.")
            return .usage
        }
        if parsed.isHelpRequested {
            console.write(parser.helpText(for: parsed.commandPath))
            return .ok
        }
        if parsed.commandPath.count == 1, parsed.isSet(ListCommand.version) {
            console.line("cast-scan \(BuildInfo.description)")
            return .ok
        }
        let termination = SignalStream.termination()
        let context = CommandContext(
            arguments: parsed, environment: environment, console: console, termination: termination,
            wallClock: wallClock)
        let command = root.command(at: parsed.commandPath.dropFirst())
        signalEndsCleanly.store(!command.endsOnSignal, ordering: .relaxed)
        if command.streamsOutput { console.streamLines() }
        do {
            let runner = try command.init(context)
            if !command.endsOnSignal { return try await runner.run() }
            return try await Self.run(runner, endingOn: termination)
        } catch let error as UsageError {
            console.errorLine("cast-scan: \(error.message)")
            console.errorLine("Run '\(parsed.commandPath.joined(separator: " ")) --help' for usage.")
            return .usage
        } catch let failure as CommandFailure {
            console.errorLine("cast-scan: \(TerminalText.sanitize(failure.message))")
            return failure.exitCode
        } catch {
            console.errorLine("cast-scan: \(TerminalText.sanitize(String(describing: error)))")
            return .software
        }
    }
}
