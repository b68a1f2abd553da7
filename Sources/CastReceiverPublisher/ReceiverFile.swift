import CastDiscovery
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A device file: the receivers to publish, in the lab's format (`Fixtures/lab/*.json`).
///
/// `{"devices": [ENTRY, ...]}`, where an entry is one of
/// - `{"fixture": "PATH"}`: a device fixture (`Fixtures/devices/*.json`), relative to the file;
/// - the lab's inline service: `instance`, `port`, `txt` (strings) or `txtHex` (each string's
///   bytes in hex) or `txtWireHex` (the record's wire format), `subtypes` (app IDs); the lab's
///   `host`, `stack`, `ipv6Only`, `ttl` and `announceSubtypes` are accepted and not used: a
///   published service is on this host, under its name;
/// - a typed device: `name`, `model`, `capabilities`, optionally `id` (random when missing),
///   `group`, `status` (`idle` or `busy`), `statusText`, `appIDs`, `port`, and `cd`, `rm`, `bs`,
///   `nf`, `ve`, `ic`.
public struct ReceiverFile: Sendable {
    /// The largest file read (and each fixture it names).
    public static let maximumFileSize = 16 << 20
    /// The most devices a file may hold.
    public static let maximumDevices = 1000

    /// The receivers, in file order.
    public var receivers: [SimulatedReceiver]

    /// Reads the file at `path`.
    ///
    /// - Throws: ``ReceiverFileError`` saying which file and entry is wrong and why: unreadable,
    ///   not JSON, an unknown or mistyped field, a bad id or port, duplicate ids or instance
    ///   names, more than ``maximumDevices``.
    public init(path: String) throws(ReceiverFileError) {
        let data = try Self.read(path)
        let file: FileCoding
        do {
            file = try JSONDecoder().decode(FileCoding.self, from: data)
        } catch let error as DecodingError {
            // The text is valid JSON (checked): what the decoder calls corrupt at the top is a number.
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw ReceiverFileError(path: path, message: "a number is out of range or not a number")
            }
            throw ReceiverFileError(path: path, message: error.summary)
        } catch {
            throw ReceiverFileError(path: path, message: "not JSON: \(error)")
        }
        guard file.devices.count <= Self.maximumDevices else {
            throw ReceiverFileError(
                path: path,
                message: "\(file.devices.count) devices; at most \(Self.maximumDevices) can be published at once")
        }
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        var receivers: [SimulatedReceiver] = []
        for (index, entry) in file.devices.enumerated() {
            do throws(ReceiverFileError.Reason) {
                receivers.append(try Self.receiver(entry, directory: directory))
            } catch {
                throw ReceiverFileError(path: path, message: "devices[\(index)]: \(error.text)")
            }
        }
        try self.init(checking: receivers, path: path)
    }

    /// The receivers given, checked as a file's are (ids, names, each registration's rules).
    public init(checking receivers: [SimulatedReceiver], path: String = "receivers") throws(ReceiverFileError) {
        var ids: [String: Int] = [:]
        var names: [String: Int] = [:]
        for (index, receiver) in receivers.enumerated() {
            let position = "devices[\(index)]"
            if let first = ids[receiver.normalizedID] {
                throw ReceiverFileError(
                    path: path,
                    message: "\(position): the id \(SafeText.quoted(receiver.id)) is also devices[\(first)]'s")
            }
            ids[receiver.normalizedID] = index
            if let first = names[receiver.instanceName.lowercased()] {
                throw ReceiverFileError(
                    path: path,
                    message:
                        "\(position): the instance name \(SafeText.quoted(receiver.instanceName)) is also devices[\(first)]'s"
                )
            }
            names[receiver.instanceName.lowercased()] = index
            do throws(DiscoveryError) {
                try receiver.registration().validate()
            } catch {
                throw ReceiverFileError(path: path, message: "\(position): \(error.message)")
            }
        }
        self.receivers = receivers
    }

    /// The file's bytes, checked to be JSON.
    static func read(_ path: String) throws(ReceiverFileError) -> Data {
        let data: Data
        do throws(BoundedFile.Failure) {
            data = try BoundedFile.read(path: path, limit: maximumFileSize)
        } catch {
            throw ReceiverFileError(path: path, message: "\(error)")
        }
        do throws(JSONSyntax.Failure) {
            try JSONSyntax.check(data)
        } catch {
            throw ReceiverFileError(path: path, message: "not JSON: \(error)")
        }
        return data
    }
}
