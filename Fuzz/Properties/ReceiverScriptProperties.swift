import CastDiscovery
import CastReceiverPublisher
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Receiver scripts (`ReceiverScript(path:)` and, line by line, `ReceiverScript.change(fromLine:)`,
/// what `cast-scan publish --script` and its standard input read).
///
/// - Never traps; throws only `ReceiverFileError`, whose text holds no raw control character.
/// - A script that loads gives what its lines give one by one, in order; its times never go
///   back; no name, device or setting it gives holds a raw control character (lines with one
///   are refused).
/// - Its changes checked against `Fixtures/publish/receivers.json`'s receivers (the publisher's
///   dry run) throw only `DiscoveryError`, with no raw control character in its text.
public enum ReceiverScriptProperties {
    static let property = Property(target: "receiver-script")

    /// The receivers the changes are checked against (none when the fixture cannot be read).
    static let receivers: [SimulatedReceiver] =
        (try? ReceiverFile(path: Fixtures.directory.appendingPathComponent("publish/receivers.json").path))?.receivers
        ?? []

    public static func check(_ bytes: [UInt8]) throws(PropertyFailure) {
        let script: ReceiverScript
        do {
            script = try ScratchFiles.withFile(bytes, named: "script.txt") { (path) throws(ReceiverFileError) in
                try ReceiverScript(path: path)
            }
        } catch {
            try property.requireNoRawControl(error.description, in: "the error")
            try checkLines(bytes, file: nil)
            return
        }
        try checkLines(bytes, file: script.changes)
        var latest: Duration = .zero
        for change in script.changes {
            if let at = change.at {
                try property.require(at >= latest, "a time goes back: \(at) after \(latest)")
                latest = at
            }
            for text in strings(of: change) {
                try property.requireNoRawControl(text, in: "a change's text")
            }
        }
        do {
            try CastReceiverPublisher.check(script.changes, receivers: receivers)
        } catch {
            try property.requireNoRawControl(error.description, in: "the publisher's error")
        }
    }

    /// Each line read alone: errors without raw control characters; for a file that loaded, the
    /// same changes in the same order.
    private static func checkLines(_ bytes: [UInt8], file: [ReceiverChange]?) throws(PropertyFailure) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        var changes: [ReceiverChange] = []
        for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            do {
                if let change = try ReceiverScript.change(fromLine: String(decoding: line, as: UTF8.self)) {
                    changes.append(change)
                }
            } catch {
                try property.requireNoRawControl(error.description, in: "a line's error")
                try property.require(file == nil, "the file loads but a line alone is refused: \(error)")
                return
            }
        }
        if let file {
            try property.require(changes == file, "the lines one by one give \(changes), the file \(file)")
        }
    }

    private static func strings(of change: ReceiverChange) -> [String] {
        var texts = [change.device]
        switch change.action {
        case .rename(let name), .startApp(let name): texts.append(name)
        case .set(let settings): texts += settings.flatMap { [$0.key, $0.value] }
        case .stopApp, .volume, .withdraw, .return: break
        }
        return texts
    }
}
