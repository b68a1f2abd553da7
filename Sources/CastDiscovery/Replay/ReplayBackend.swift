#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A backend that plays a recorded event stream, for deterministic tests and demos.
///
/// Each service is reported only through the requested browse types it was recorded in (a
/// service recorded in none of them is not reported); all-for-now and cache-exhausted events of
/// other browse types are dropped. Events keep their recorded spacing divided by ``speed``.
///
/// The stream is bounded (``BackendEventBuffer``, 8,192 events) and a replay never folds or
/// drops: while the buffer is full the player waits for the consumer, so a consumer that falls
/// behind receives every recorded event, later than recorded.
public struct ReplayBackend: DiscoveryBackend {
    /// What happens after the last event.
    public enum Ending: Sendable, Hashable {
        /// The stream stays open, quiet, until the iteration ends (like a network with no news).
        case holdOpen
        /// The stream finishes.
        case finish
    }

    /// The recording played.
    public let recording: ReplayRecording
    /// How many times faster than recorded to play; 0 (or any value that is not finite and
    /// positive) plays without waiting.
    public var speed: Double
    /// What happens after the last event. A recorded ``BackendState/failed(_:)`` always
    /// finishes the stream.
    public var ending: Ending
    /// What the recorded spacing is kept with.
    public var clock: any DiscoveryClock

    /// Creates a backend playing `recording`, keeping its spacing with `clock`.
    public init(
        recording: ReplayRecording, speed: Double = 1, ending: Ending = .holdOpen,
        clock: any DiscoveryClock = ContinuousClock()
    ) {
        self.recording = recording
        self.speed = speed
        self.ending = ending
        self.clock = clock
    }

    /// Creates a backend playing the recording in a JSON file.
    ///
    /// - Throws: ``DiscoveryError`` of kind `badInput` (see ``ReplayRecording/init(contentsOf:)``).
    public init(contentsOf url: URL, speed: Double = 1, ending: Ending = .holdOpen) throws(DiscoveryError) {
        self.init(recording: try ReplayRecording(contentsOf: url), speed: speed, ending: ending)
    }

    public func events(for request: BrowseRequest) throws(DiscoveryError) -> AsyncStream<BackendEvent> {
        try eventBuffer(for: request).stream()
    }

    /// Starts the browses of `request`, whose events wait in the buffer returned (see
    /// ``events(for:)``).
    package func eventBuffer(for request: BrowseRequest) throws(DiscoveryError) -> BackendEventBuffer {
        let browseTypes = request.browseTypes
        let buffer = BackendEventBuffer()
        let events = recording.events
        let speed = speed.isFinite && speed > 0 ? speed : 0
        let (ending, clock) = (ending, self.clock)
        let task = Task {
            var filter = ReplayBrowseFilter(browseTypes: browseTypes)
            var last = 0.0
            for replayEvent in events {
                if speed > 0, replayEvent.time > last {
                    try? await clock.sleep(for: .seconds(clamping: (replayEvent.time - last) / speed))
                }
                last = replayEvent.time
                if Task.isCancelled { return }
                guard let event = filter.filter(replayEvent.event) else { continue }
                await buffer.send(event)
                if Task.isCancelled { return }
                if case .stateChanged(.failed) = event {
                    buffer.finish()
                    return
                }
            }
            if ending == .finish {
                buffer.finish()
                return
            }
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(3600))
            }
            buffer.finish()
        }
        buffer.onTermination = { task.cancel() }
        return buffer
    }
}

extension ReplayBackend: BufferedDiscoveryBackend {}
