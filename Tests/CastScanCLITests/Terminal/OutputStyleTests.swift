#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

@testable import CastScanCLI

/// Colour and progress only on capable terminals.
@Suite("OutputStyle")
struct OutputStyleTests {
    @Test(
        "detection from isatty and the environment",
        arguments: [
            (true, [String: String](), true, true),
            (true, ["TERM": "xterm-256color"], true, true),
            (false, ["TERM": "xterm-256color"], false, false),
            (true, ["TERM": "dumb"], false, false),
            (true, ["NO_COLOR": "1"], false, false),
            (true, ["NO_COLOR": ""], true, true),
            (true, ["NO_COLOR": "1", "TERM": "dumb"], false, false),
            (false, ["NO_COLOR": "1"], false, false),
        ])
    func detection(isTerminal: Bool, environment: [String: String], color: Bool, progress: Bool) {
        let style = OutputStyle(isTerminal: isTerminal, environment: environment)
        #expect(style.usesColor == color)
        #expect(style.showsProgress == progress)
    }

    @Test("paint wraps in SGR sequences only when colour is on", arguments: OutputStyle.Color.allCases)
    func paint(color: OutputStyle.Color) {
        let on = OutputStyle(usesColor: true, showsProgress: false)
        let painted = on.paint("Kitchen", color)
        #expect(painted.hasPrefix("\u{1B}[" + color.parameter + "m"))
        #expect(painted.hasSuffix("Kitchen\u{1B}[0m"))
        #expect(OutputStyle.plain.paint("Kitchen", color) == "Kitchen")
        #expect(on.paint("", color) == "")
    }

    @Test("progress lines only when progress is on")
    func progress() {
        let on = OutputStyle(usesColor: false, showsProgress: true)
        #expect(on.progress("3 devices") == "\r\u{1B}[2K3 devices")
        #expect(on.clearProgress() == "\r\u{1B}[2K")
        #expect(OutputStyle.plain.progress("3 devices") == "")
        #expect(OutputStyle.plain.clearProgress() == "")
    }

    @Test("a pipe is not a terminal")
    func pipeIsNotATerminal() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        for end in fds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(fds[0]); close(fds[1]) }
        let style = OutputStyle.detect(fileDescriptor: fds[1], environment: ["TERM": "xterm"])
        #expect(style == .plain)
    }
}
