#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `cast-scan` tool: parses the command line and runs the chosen command.
public enum CastScan {
    /// Runs `cast-scan` with `arguments` (without the program name) and returns its exit status.
    ///
    /// When standard output stops taking text, the command ends: a reader that went away (a
    /// closed pipe, `cast-scan watch | head -1`) ends it quietly with the status it had (0 for a
    /// watch); any other failure (a full disk, a closed descriptor) prints one line on standard
    /// error and returns ``ExitCode/ioError`` (74).
    public static func run(arguments: [String], environment: [String: String], console: Console) async -> ExitCode {
        let status = await runCommand(arguments: arguments, environment: environment, console: console)
        switch console.outputFailure {
        case nil, .closed?:
            return status
        case let failure?:
            console.errorLine("cast-scan: cannot write to standard output: \(failure.message)")
            return .ioError
        }
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
            return ShellCompletion.Shell(rawValue: arguments[1]).map { ShellCompletion.script(for: $0, root: root.declarationTree) }
        default:
            return nil
        }
    }

    /// The root command, whose type holds the whole command tree.
    static var root: any Command.Type { ListCommand.self }

    private static func runCommand(arguments: [String], environment: [String: String], console: Console) async -> ExitCode {
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
        let context = CommandContext(arguments: parsed, environment: environment, console: console, termination: termination)
        let command = root.command(at: parsed.commandPath.dropFirst())
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
