#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A recorded stream of backend events with their timings: what a ``ReplayBackend`` plays.
///
/// Read from and written to JSON (`{"version": 1, "description": ..., "events": [...]}`); see
/// docs/library.md, "Replay files", for the format. Times never go backwards.
public struct ReplayRecording: Sendable, Hashable {
    /// The only file format version.
    public static let version = 1
    /// The largest file read, in bytes.
    public static let maximumFileSize = 16 * 1024 * 1024
    /// The most events a recording may hold.
    public static let maximumEventCount = 100_000
    /// The latest time an event may have, in seconds from the start: a year.
    public static let maximumTime = 366.0 * 24 * 3600

    /// What the recording shows, for people.
    public var description: String?
    /// The events, in time order.
    public var events: [ReplayEvent]

    /// Creates a recording.
    ///
    /// - Throws: ``DiscoveryError`` of kind `badInput` when a time is negative, not finite or
    ///   earlier than the one before, or when there are more than ``maximumEventCount`` events.
    public init(description: String? = nil, events: [ReplayEvent]) throws(DiscoveryError) {
        guard events.count <= Self.maximumEventCount else {
            throw Self.badInput("\(events.count) events, more than \(Self.maximumEventCount)")
        }
        var last = 0.0
        for (index, event) in events.enumerated() {
            guard event.time.isFinite, event.time >= 0, event.time <= Self.maximumTime else {
                throw Self.badInput(
                    "events[\(index)].at: \(event.time) is not a time in seconds from 0 to \(Int(Self.maximumTime)) (a year)"
                )
            }
            guard event.time >= last else {
                throw Self.badInput("events[\(index)].at: \(event.time) is earlier than the event before (\(last))")
            }
            last = event.time
        }
        self.description = description
        self.events = events
    }

    /// Reads a recording from JSON.
    ///
    /// - Throws: ``DiscoveryError`` of kind `badInput`, saying where and what is wrong: too large,
    ///   not JSON, a missing or mistyped field, an unknown event kind or state, bad times.
    public init(json data: Data) throws(DiscoveryError) {
        guard data.count <= Self.maximumFileSize else {
            throw Self.badInput("\(data.count) bytes, more than \(Self.maximumFileSize)")
        }
        do throws(JSONSyntax.Failure) {
            try JSONSyntax.check(data)
        } catch {
            if case .invalid = error { throw Self.badInput("not JSON: \(error)") }
            throw Self.badInput("\(error)")
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch let error as DecodingError {
            // The text is valid JSON (checked above): what the decoder calls corrupt is a number.
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw Self.badInput("a number is out of range or not a number")
            }
            throw Self.badInput(error.summary)
        } catch {
            throw Self.badInput("not JSON: \(error)")
        }
        guard file.version == Self.version else {
            throw Self.badInput("version: \(file.version) is not supported (expected \(Self.version))")
        }
        guard file.events.count <= Self.maximumEventCount else {
            throw Self.badInput("\(file.events.count) events, more than \(Self.maximumEventCount)")
        }
        var events: [ReplayEvent] = []
        events.reserveCapacity(file.events.count)
        for (index, coding) in file.events.enumerated() {
            events.append(try coding.replayEvent(path: "events[\(index)]"))
        }
        try self.init(description: file.description, events: events)
    }

    /// Reads a recording from a JSON file.
    ///
    /// - Throws: ``DiscoveryError`` of kind `badInput`: the file is missing, unreadable, a
    ///   directory, larger than ``maximumFileSize``, or not a valid recording (the message starts
    ///   with the path).
    public init(contentsOf url: URL) throws(DiscoveryError) {
        let path = url.path
        // The path as said in a message: a byte that is not UTF-8 as \xHH, and the whole quoted
        // and escaped when it holds a control character.
        let display = RawPath.display(path)
        let shown = SafeText.containsUnsafeScalars(display) ? SafeText.quoted(display, limit: .max) : display
        let data: Data
        do throws(BoundedFile.Failure) {
            data = try BoundedFile.read(path: path, limit: Self.maximumFileSize)
        } catch {
            throw Self.badInput(
                "\(shown): \(error)", fix: error == .missing ? "check the path of the replay file" : nil)
        }
        do throws(DiscoveryError) {
            try self.init(json: data)
        } catch {
            let message =
                error.message.hasPrefix(Self.messagePrefix)
                ? String(error.message.dropFirst(Self.messagePrefix.count)) : error.message
            throw Self.badInput("\(shown): \(message)", fix: error.fix)
        }
    }

    /// The recording as JSON, in the format ``init(json:)`` reads.
    public func json() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let file = File(version: Self.version, description: description, events: events.map(ReplayEventCoding.init))
        return (try? encoder.encode(file)) ?? Data()
    }

    private struct File: Codable {
        var version: Int
        var description: String?
        var events: [ReplayEventCoding]
    }

    private static let messagePrefix = "bad replay file: "

    static func badInput(_ message: String, fix: String? = nil) -> DiscoveryError {
        DiscoveryError(kind: .badInput, message: messagePrefix + message, fix: fix)
    }
}
