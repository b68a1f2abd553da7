#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes: standard output and standard error, each with the style its stream
/// allows (colour and progress only on a terminal without `NO_COLOR`).
///
/// A stream that stops taking text (a full disk, a closed descriptor, a reader that went away)
/// never traps: the first failure is recorded, later text to that stream is dropped, and the
/// command ends as ``CastScan/run(arguments:environment:console:wallClock:)`` documents.
///
/// Writing never waits for a reader: the process's standard output and error are each written
/// by a thread of their own from a bounded queue (`FileDescriptorSink`), and how the process
/// ends with text still queued is `finish()`'s part.
public struct Console: Sendable {
    let output: any TextSink
    let error: any TextSink
    /// The style standard output allows.
    var outputStyle: OutputStyle
    /// The style standard error allows.
    var errorStyle: OutputStyle
    /// Standard output and error as queued by ``standard(environment:)``; nil for a console over
    /// other sinks, which write as they are given text.
    let queued: (output: FileDescriptorSink, error: FileDescriptorSink)?

    /// Creates a console that writes to `output` and `error` (tests collect what is written).
    init(output: any TextSink, error: any TextSink, outputStyle: OutputStyle = .plain, errorStyle: OutputStyle = .plain)
    {
        self.output = output
        self.error = error
        self.outputStyle = outputStyle
        self.errorStyle = errorStyle
        queued = nil
    }

    private init(
        queued: (output: FileDescriptorSink, error: FileDescriptorSink), outputStyle: OutputStyle,
        errorStyle: OutputStyle
    ) {
        output = queued.output
        error = queued.error
        self.outputStyle = outputStyle
        self.errorStyle = errorStyle
        self.queued = queued
    }

    /// The process's standard output and error.
    ///
    /// Call it before the process opens any file: a standard descriptor that is closed is taken
    /// by `/dev/null`, so no file opened later can land on it and receive the tool's output,
    /// and writing to it counts as a failure (`EBADF`). `SIGPIPE` is ignored, so a reader that
    /// went away shows as `OutputFailure.closed`.
    public static func standard(environment: [String: String]) -> Console {
        signal(SIGPIPE, SIG_IGN)
        let closed = (0...2).map { fcntl(Int32($0), F_GETFD) < 0 }
        for descriptor in 0...2 where closed[descriptor] {
            // open() returns the lowest free descriptor: this one.
            _ = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY)
        }
        let error = FileDescriptorSink(
            descriptor: 2, name: "standard error", bound: .messages, closedAtStart: closed[2])
        let output = FileDescriptorSink(
            descriptor: 1, name: "standard output", bound: .document, closedAtStart: closed[1], notes: error)
        return Console(
            queued: (output, error),
            outputStyle: closed[1] ? .plain : .detect(fileDescriptor: 1, environment: environment),
            errorStyle: closed[2] ? .plain : .detect(fileDescriptor: 2, environment: environment))
    }

    /// Writes text to standard output.
    func write(_ text: String) { output.write(text) }

    /// Writes text to standard error.
    func writeError(_ text: String) { error.write(text) }

    /// Writes a line to standard output.
    func line(_ text: String = "") { write(text + "\n") }

    /// Writes a line to standard error.
    func errorLine(_ text: String) { writeError(text + "\n") }

    /// Why standard output stopped taking text, once it has.
    var outputFailure: OutputFailure? { output.failure }
}

/// Why a stream stopped taking text.
enum OutputFailure: Sendable, Hashable {
    /// The reader went away (`EPIPE`): a pipeline's next command has all it wanted.
    case closed
    /// Writing failed with this `errno` (`ENOSPC` on a full disk, `EBADF` on a closed
    /// descriptor, `EIO`, ...).
    case failed(Int32)

    /// The system's message.
    var message: String {
        switch self {
        case .closed: String(cString: strerror(EPIPE))
        case .failed(let code): String(cString: strerror(code))
        }
    }
}

/// A destination for text that may stop taking it.
protocol TextSink: Sendable {
    /// Writes `text`, or drops it once the sink has failed.
    func write(_ text: String)
    /// The first failure, once there was one.
    var failure: OutputFailure? { get }
}
