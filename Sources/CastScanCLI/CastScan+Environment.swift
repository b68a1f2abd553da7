import CastDiscovery
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension CastScan {
    /// The process's arguments without the program name, each byte kept: an argument that is
    /// not UTF-8 (a file name such as `r\xff.json`) names the same file when it is opened
    /// (see `RawPath` in the core).
    public static func processArguments() -> [String] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return "" }
            return RawPath.decode(
                UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) })
        }
    }

    /// The process's environment variables (the first definition of a name wins), each byte
    /// kept as ``processArguments()`` keeps them (`HOME` may name a directory that is not UTF-8).
    public static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = RawPath.decode(
                UnsafeBufferPointer(start: pointer, count: strlen(pointer)).map { UInt8(bitPattern: $0) })
            if let equals = text.firstIndex(of: "="), result[String(text[..<equals])] == nil {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}
