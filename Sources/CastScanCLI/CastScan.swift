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

    /// The root command, whose type holds the whole command tree.
    static var root: any Command.Type { ListCommand.self }

    private static func runCommand(arguments: [String], environment: [String: String], console: Console) async -> ExitCode {
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
        let context = CommandContext(arguments: parsed, environment: environment, console: console)
        let command = root.command(at: parsed.commandPath.dropFirst())
        do {
            return try await command.init(context).run()
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
