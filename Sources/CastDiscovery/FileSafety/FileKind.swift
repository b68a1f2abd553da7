#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What kind of object a path names, as `stat` reports it: the kinds the package's file rules
/// tell apart.
package enum FileKind: Sendable, Hashable, CustomStringConvertible {
    case regular
    case directory
    case symbolicLink
    case fifo
    case characterDevice
    case blockDevice
    case socket
    case unknown

    /// The kind of a `stat` mode.
    package init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symbolicLink
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        default: self = .unknown
        }
    }

    /// `a FIFO`, `a directory`, ... for messages.
    package var description: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a directory"
        case .symbolicLink: "a symbolic link"
        case .fifo: "a FIFO"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .socket: "a socket"
        case .unknown: "not a regular file"
        }
    }
}

/// The system's message for an `errno` value.
package func systemErrorMessage(_ code: Int32) -> String {
    String(cString: strerror(code))
}

/// `read(2)`, under a name no method called `read` hides.
package func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// `write(2)`, under a name no method called `write` hides.
package func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
