import Foundation

/// A fresh directory under the system's temporary directory, removed with its contents when
/// the last reference goes away.
final class TestDirectory: Sendable {
    let url: URL

    init(prefix: String = "cast-scan-tests") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the directory (the file need not exist).
    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes `text` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try write(name, Data(text.utf8))
    }

    /// Writes `data` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, _ data: Data) throws -> String {
        let url = url.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }
}

/// The package's fixture files.
enum FixturePaths {
    /// The package root, found from this file's place in `Tests/CastScanCLITests/Helpers`.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Helpers
        .deletingLastPathComponent()  // CastScanCLITests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static func fixture(_ relativePath: String) -> String {
        packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(relativePath).path
    }

    static let livingRoom = fixture("replay/living-room.json")
    static let badReplay = fixture("replay/bad-unknown-kind.json")
}
