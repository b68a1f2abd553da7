import CastDiscovery
import CastScanCLI
import Foundation
import Testing

/// `Scanner` returns the list as it was when the scan completed, even when the backend has
/// delivered more by the time the caller looks.
@Suite("Scanner")
struct ScannerSnapshotTests {
    static let livingRoom = URL(fileURLWithPath: FixturePaths.livingRoom)

    @Test("a replay played at full speed scans to the list at its first all-for-now, every time")
    func listAtCompletion() async throws {
        for _ in 0..<25 {
            let backend = try ReplayBackend(contentsOf: Self.livingRoom, speed: 0, ending: .holdOpen)
            let scanner = Scanner(backend: backend, criteria: .all, timeout: .seconds(5))
            let result = try await scanner.scan()
            #expect(result.complete)
            #expect(result.devices.map(\.friendlyName) == ["Dev Emulator", "Downstairs", "Kitchen speaker", "Living Room TV"])
            #expect(result.devices.first { $0.friendlyName == "Living Room TV" }?.status == .idle)
        }
    }

    @Test("a scan that never completes returns at its timeout what is listed, marked incomplete")
    func timeout() async throws {
        let recording = try ReplayRecording(contentsOf: Self.livingRoom)
        let withoutAllForNow = try ReplayRecording(events: recording.events.filter { event in
            switch event.event {
            case .allForNow, .cacheExhausted: false
            default: true
            }
        })
        let backend = ReplayBackend(recording: withoutAllForNow, speed: 0, ending: .holdOpen)
        let scanner = Scanner(backend: backend, criteria: .all, timeout: .milliseconds(200))
        let result = try await scanner.scan()
        #expect(!result.complete)
        // Returns at its timeout, never holds on (generous bound: the suite runs many processes at once).
        #expect(result.elapsed >= 0.2 && result.elapsed < 10)
        #expect(result.devices.count == 3, "every event played: \(result.devices.map(\.friendlyName))")
    }
}
