import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A script of changes (`--script FILE`, or lines on standard input): one change a line,
///
///     [SECONDS] ACTION DEVICE [ARGUMENTS]
///
/// `SECONDS` counts from the start of publishing (a file's must not go back; without it a line
/// follows the one before); `DEVICE` is a receiver's id or instance name; the actions are
/// `rename NAME`, `start-app NAME`, `stop-app`, `set KEY=VALUE...`, `volume LEVEL [muted]`
/// (0 to 1, for the Cast channel), `withdraw` and `return`.
/// Blank lines and lines starting with `#` are skipped.
public struct ReceiverScript: Sendable {
    /// The longest line read.
    public static let maximumLineLength = 4096
    /// The most changes a script file may hold.
    public static let maximumChanges = 100_000
    /// The latest time a line may give.
    public static let maximumSeconds = 86_400.0 * 7

    /// The changes, in order.
    public var changes: [ReceiverChange]

    /// Reads a script file.
    ///
    /// - Throws: ``ReceiverFileError`` naming the file and line: unreadable, a line too long or
    ///   not understood, a time earlier than the line before, too many lines.
    public init(path: String) throws(ReceiverFileError) {
        let data = try Self.readText(path)
        var changes: [ReceiverChange] = []
        var latest: Duration = .zero
        // Split on the byte: a String splits "\r\n" as one character.
        for (index, line) in data.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .enumerated()
        {
            let change: ReceiverChange?
            do throws(ReceiverFileError.Reason) {
                change = try Self.parse(String(decoding: line, as: UTF8.self))
            } catch {
                throw ReceiverFileError(path: path, message: "line \(index + 1): \(error.text)")
            }
            guard let change else { continue }
            if let at = change.at {
                guard at >= latest else {
                    throw ReceiverFileError(
                        path: path,
                        message:
                            "line \(index + 1): \(at.secondsText) s is earlier than the line before (\(latest.secondsText) s)"
                    )
                }
                latest = at
            }
            guard changes.count < Self.maximumChanges else {
                throw ReceiverFileError(path: path, message: "more than \(Self.maximumChanges) changes")
            }
            changes.append(change)
        }
        self.changes = changes
    }

    /// Creates a script of the changes given.
    public init(changes: [ReceiverChange]) {
        self.changes = changes
    }

    /// One line's change; nil for a blank or comment line.
    ///
    /// - Throws: ``ReceiverFileError/Reason`` saying what is wrong with the line.
    static func parse(_ line: String) throws(ReceiverFileError.Reason) -> ReceiverChange? {
        guard line.utf8.count <= maximumLineLength else { throw .init("longer than \(maximumLineLength) bytes") }
        let body = line.hasSuffix("\r") ? String(line.dropLast()) : line
        var rest = Substring(body)
        func nextWord() -> Substring? {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            guard !rest.isEmpty else { return nil }
            let word = rest.prefix { $0 != " " && $0 != "\t" }
            rest = rest.dropFirst(word.count)
            return word
        }
        guard var word = nextWord(), !word.hasPrefix("#") else { return nil }
        if SafeText.containsUnsafeScalars(String(body.map { $0 == "\t" ? " " : $0 })) {
            throw .init("contains a control or format character")
        }
        var at: Duration?
        if let first = word.unicodeScalars.first, ("0"..."9").contains(first) || first == "." {
            guard let seconds = Double(word), seconds.isFinite, (0...maximumSeconds).contains(seconds) else {
                throw .init(
                    "\(SafeText.quoted(String(word))) is not a time in seconds from 0 to \(Int(maximumSeconds))")
            }
            at = .milliseconds(Int64((seconds * 1000).rounded()))
            guard let action = nextWord() else { throw .init("a time with no action") }
            word = action
        }
        let action = String(word)
        guard let device = nextWord() else { throw .init("\(action): no device (its id or instance name)") }
        // Blanks around the argument separate it; a tab inside it (a name, a value) would be kept.
        let argument = String(
            rest.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        guard !argument.contains("\t") else { throw .init("contains a tab inside its argument") }
        func needsArgument(_ what: String) throws(ReceiverFileError.Reason) -> String {
            guard !argument.isEmpty else { throw .init("\(action) needs \(what)") }
            return argument
        }
        func noArgument() throws(ReceiverFileError.Reason) {
            guard argument.isEmpty else { throw .init("\(action) takes no argument after the device") }
        }
        let change: ReceiverChange.Action
        switch action {
        case "rename": change = .rename(try needsArgument("a name"))
        case "start-app": change = .startApp(try needsArgument("the app's name (its status text)"))
        case "stop-app": try noArgument(); change = .stopApp
        case "volume":
            let words = try needsArgument("a level from 0 to 1, then optionally muted").split(whereSeparator: {
                $0 == " " || $0 == "\t"
            })
            guard let level = Double(words[0]), level.isFinite, (0...1).contains(level) else {
                throw .init("volume: \(SafeText.quoted(String(words[0]))) is not a level from 0 to 1")
            }
            guard words.count == 1 || (words.count == 2 && words[1] == "muted") else {
                throw .init("volume: after the level only \"muted\" may come")
            }
            change = .volume(level: level, muted: words.count == 2)
        case "withdraw": try noArgument(); change = .withdraw
        case "return": try noArgument(); change = .return
        case "set":
            var settings: [ReceiverChange.Setting] = []
            for pair in try needsArgument("KEY=VALUE").split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                    throw .init("set: \(SafeText.quoted(String(pair))) is not KEY=VALUE")
                }
                settings.append(.init(key: String(pair[..<equals]), value: String(pair[pair.index(after: equals)...])))
            }
            change = .set(settings)
        default:
            throw .init(
                "\(SafeText.quoted(action)) is not an action (rename, start-app, stop-app, set, volume, withdraw, return)"
            )
        }
        return ReceiverChange(at: at, device: String(device), action: change)
    }

    /// One line read from standard input, read as a script file's lines are.
    public static func change(fromLine line: String) throws(ReceiverFileError) -> ReceiverChange? {
        do throws(ReceiverFileError.Reason) {
            return try parse(line)
        } catch {
            throw ReceiverFileError(path: "standard input", message: error.text)
        }
    }

    private static func readText(_ path: String) throws(ReceiverFileError) -> String {
        let data: Data
        do throws(BoundedFile.Failure) {
            data = try BoundedFile.read(path: path, limit: maximumChanges * 64)
        } catch {
            throw ReceiverFileError(path: path, message: "\(error)")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw ReceiverFileError(path: path, message: "not UTF-8 text")
        }
        return text
    }
}
