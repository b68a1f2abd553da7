import Foundation

/// Reading gzip in tests with the system's own `gzip`, an implementation independent of the
/// one under test.
public enum GzipTestSupport {
    /// What `gzip -dc` makes of `bytes`, and its exit status.
    public static func gunzip(_ bytes: [UInt8]) throws -> (Data, Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Written from another thread: a large output would otherwise fill the pipe first.
        let writer = Thread {
            input.fileHandleForWriting.write(Data(bytes))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (data, process.terminationStatus)
    }
}
