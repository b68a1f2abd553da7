import CastDiscovery
import CastSender
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The discovery start state file (`SenderFlowStore.load()` and its view
/// `DiscoveryStartStore.load()`), read from a regular file holding the input.
///
/// - Loading a regular, readable file never throws: a file that is not a store is reported as
///   `corrupt` and counts as a fresh install's state; the problem's text holds no raw control
///   character.
/// - The two views agree on the start fact and the problem.
/// - What loads saves (as version 2) and loads back as the same state, with no problem; saving
///   through the start view keeps the rest of the state.
public enum StateFileProperties {
    static let property = Property(target: "state-file")

    public static func check(_ bytes: [UInt8]) throws(PropertyFailure) {
        try ScratchFiles.withFile(bytes, named: "state.json") { (path) throws(PropertyFailure) in
            let url = URL(fileURLWithPath: path)
            let loaded: SenderFlowStore.Loaded
            let start: DiscoveryStartStore.Loaded
            do {
                loaded = try SenderFlowStore(url: url).load()
                start = try DiscoveryStartStore(url: url).load()
            } catch {
                throw property.fail("loading a regular file threw \(error)")
            }
            if let problem = loaded.problem {
                try property.require(
                    problem.kind == .corrupt, "a regular file's problem is \(problem.kind), not corrupt")
                try property.require(
                    loaded.state == SenderFlowState() && loaded.version == nil,
                    "a corrupt file gave state \(loaded.state)")
                try property.requireNoRawControl(problem.description, in: "the problem")
            } else {
                try property.require(
                    loaded.version == 1 || loaded.version == 2,
                    "a usable file has version \(String(describing: loaded.version))")
            }
            try property.require(
                start.discoveryHasStartedOnce == loaded.state.discoveryHasStartedOnce
                    && start.problem == loaded.problem,
                "the start view reads \(start), the state store \(loaded)")
            try checkSaved(loaded.state)
        }
    }

    private static func checkSaved(_ state: SenderFlowState) throws(PropertyFailure) {
        let path = ScratchFiles.path("saved.json")
        defer { ScratchFiles.remove(path) }
        let store = SenderFlowStore(url: URL(fileURLWithPath: path))
        do {
            try store.save(state)
            let again = try store.load()
            try property.require(
                again.state == state && again.version == SenderFlowStore.currentVersion && again.problem == nil,
                "saved \(state), loaded back \(again)")
            let flipped = !state.discoveryHasStartedOnce
            try DiscoveryStartStore(url: store.url).save(discoveryHasStartedOnce: flipped)
            var expected = state
            expected.discoveryHasStartedOnce = flipped
            let viewed = try store.load()
            try property.require(
                viewed.state == expected,
                "saving the start fact changed the rest: \(viewed.state), expected \(expected)")
        } catch let failure as PropertyFailure {
            throw failure
        } catch {
            throw property.fail("saving or loading back threw \(error)")
        }
    }
}
