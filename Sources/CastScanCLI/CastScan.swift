#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import CastDiscovery

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

    private static func runCommand(arguments: [String], environment: [String: String], console: Console) async -> ExitCode {
        let parser = ArgumentParser(command: CastScanCommand.root)
        let parsed: ParsedArguments
        do {
            parsed = try parser.parse([CastScanCommand.root.name] + arguments)
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
        do {
            switch parsed.commandPath.dropFirst().first {
            case nil: return try await ListCommand(context).run()
            case "watch": return try await WatchCommand(context).run()
            case "plist": return try PlistCommand(context).run()
            case "advise": return try AdviseCommand(context).run()
            case "simulate": return try await SimulateCommand(context).run()
            case "doctor": return try await DoctorCommand(context).run()
            default:
                console.errorLine("cast-scan: internal error: no command for \(parsed.commandPath)")
                return .software
            }
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

/// What every command gets: its parsed arguments, the environment and where to write.
struct CommandContext: Sendable {
    var arguments: ParsedArguments
    var environment: [String: String]
    var console: Console
}

/// A command's failure with the exit status it calls for.
struct CommandFailure: Error {
    var message: String
    var exitCode: ExitCode

    /// The failure for a discovery error: 69 when the daemon or bus is missing, 65 for a bad
    /// input file, else 70.
    init(_ error: CastDiscovery.DiscoveryError) {
        message = error.description
        switch error.kind {
        case .discoveryServiceUnreachable, .discoveryServiceMissing: exitCode = .unavailable
        case .badInput: exitCode = .dataError
        case .daemonError: exitCode = .unavailable
        case .invalidBrowseType: exitCode = .usage
        case .other: exitCode = .software
        }
    }

    init(message: String, exitCode: ExitCode) {
        self.message = message
        self.exitCode = exitCode
    }
}

extension CastScan {
    /// The process's environment variables (the first definition of a name wins).
    public static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(decoding: UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let equals = text.firstIndex(of: "="), result[String(text[..<equals])] == nil {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}
