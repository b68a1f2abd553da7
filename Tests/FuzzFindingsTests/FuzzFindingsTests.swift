import FuzzProperties
import Testing

/// Every fuzz target's properties over its seed corpus (made from `Fixtures/`) and over every
/// finding libFuzzer made and `Scripts/fuzz` kept, minimised, in `Fixtures/fuzz/<target>/`: a
/// finding stays a failing test until the parser is fixed, and a fixed one cannot come back.
@Suite("Fuzz findings and seeds")
struct FuzzFindingsTests {
    @Test("each target's properties hold on its seeds and its findings", arguments: FuzzTarget.allCases)
    func propertiesHold(_ target: FuzzTarget) async {
        #expect(Seeds.findingsDirectoryExists(for: target), "Fixtures/fuzz/\(target.rawValue)/ is missing")
        let inputs = Seeds.seeds(for: target) + Seeds.findings(for: target)
        // No silent pass: every target has inputs to check.
        #expect(!inputs.isEmpty, "no seed and no finding for \(target.rawValue)")
        for input in inputs {
            do {
                try await target.check(input.bytes)
            } catch {
                Issue.record("\(input.name): \(error)")
            }
        }
    }
}
