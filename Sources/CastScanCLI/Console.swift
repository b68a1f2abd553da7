import Foundation

/// Where a command writes: standard output and standard error, each with the style its stream
/// allows (colour and progress only on a terminal without `NO_COLOR`).
public struct Console: Sendable {
    /// Writes text to standard output.
    public var write: @Sendable (String) -> Void
    /// Writes text to standard error.
    public var writeError: @Sendable (String) -> Void
    /// The style standard output allows.
    public var outputStyle: OutputStyle
    /// The style standard error allows.
    public var errorStyle: OutputStyle

    /// Creates a console from its parts (tests capture the text).
    public init(
        write: @escaping @Sendable (String) -> Void, writeError: @escaping @Sendable (String) -> Void,
        outputStyle: OutputStyle = .plain, errorStyle: OutputStyle = .plain
    ) {
        self.write = write
        self.writeError = writeError
        self.outputStyle = outputStyle
        self.errorStyle = errorStyle
    }

    /// The process's standard output and error.
    public static func standard(environment: [String: String]) -> Console {
        Console(
            write: { FileHandle.standardOutput.write(Data($0.utf8)) },
            writeError: { FileHandle.standardError.write(Data($0.utf8)) },
            outputStyle: .detect(fileDescriptor: 1, environment: environment),
            errorStyle: .detect(fileDescriptor: 2, environment: environment))
    }

    /// Writes a line to standard output.
    public func line(_ text: String = "") { write(text + "\n") }

    /// Writes a line to standard error.
    public func errorLine(_ text: String) { writeError(text + "\n") }
}
