import Foundation

/// Reading an input file that may be missing, not a regular file, huge or unreadable, without
/// ever blocking on a FIFO or reading more than a limit: the one way every input file of the
/// package (replays, scenarios, Info.plists, the sender's state) is read.
package enum BoundedFile {
    /// Why a file could not be read.
    package enum Failure: Error, Sendable, Hashable {
        /// Nothing is at the path.
        case missing
        /// The path is a directory.
        case directory
        /// The path is a device, FIFO or socket.
        case notRegular
        /// The file is larger than the limit (its size, or at least limit + 1).
        case tooLarge(size: Int)
        /// The file exists but cannot be read; the system's reason.
        case unreadable(String)
    }

    /// The contents of the regular file at `path`, at most `limit` bytes.
    package static func read(path: String, limit: Int) throws(Failure) -> Data {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw FileManager.default.fileExists(atPath: path) ? .unreadable(reason(error)) : .missing
        }
        switch attributes[.type] as? FileAttributeType {
        case .typeDirectory?: throw .directory
        case .typeRegular?, nil: break
        default: throw .notRegular
        }
        if let size = (attributes[.size] as? NSNumber)?.intValue, size > limit { throw .tooLarge(size: size) }
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            // The file may have grown since it was measured: never read past the limit.
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            if data.count > limit { throw Failure.tooLarge(size: data.count) }
            return data
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .unreadable(reason(error))
        }
    }

    /// The system's explanation of `error`: the POSIX message when there is one.
    package static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if let debug = nsError.userInfo[NSDebugDescriptionErrorKey] as? String, !debug.isEmpty { return debug }
        return nsError.localizedDescription
    }
}
