import CastDiscovery
import CastDiscoveryReporting

/// How `watch` and `serve` take their discovery events: each becomes a ``DiscoveryStep`` (its
/// JSON line encoded once) and goes to the command's handler, in order.
///
/// - Without `--report`, a step is handled at once, by the task that reads the events.
/// - With `--report`, a step is handled once its event is stored: the reader feeds the
///   reporter's queue (``ReportQueue``: bounded, it never drops; when it is full the reader
///   waits, and the subscription folds what it misses into an `eventsDropped`, which is stored
///   in their place), and a committer beside it stores everything queued (up to 256 events) in
///   one transaction, then hands those steps to the handler. A line on screen is a line on disk:
///   a spool that cannot take a batch ends the command (74; 75 when another process kept it
///   locked; 73 when what is at its path is refused) with nothing of that batch handled.
struct DiscoveryEventFlow: Sendable {
    /// The events, each with the list's generation after it
    /// (``DiscoveryManager/subscribeWithGenerations()``).
    let events: AsyncStream<NumberedDiscoveryEvent>
    let reporter: EventReporter?
    let console: Console
    /// Whether steps carry their JSON line when nothing is stored too (`watch --jsonl`).
    let encodesLines: Bool
    /// Whether a list of missed events is stored (`watch`), or device events only (`serve`).
    let storesMissedEvents: Bool

    /// Adds to `group` the task that reads the events and hands their steps to `handler` (with
    /// `--report`, the reader and the committer).
    func addTasks(to group: inout TaskGroup<ExitCode?>, handler: some DiscoveryStepHandler) {
        guard let reporter else {
            group.addTask {
                var handler = handler
                for await event in events {
                    // Ended by a signal: a cancelled stream still hands out what it holds, which
                    // a command that fell behind would go on handling for seconds.
                    if Task.isCancelled { return .ok }
                    guard let prepared = prepare(event.event, generation: event.generation) else { return .ioError }
                    if let exit = await handler.handle(prepared.step) { return exit }
                }
                return await handler.eventsEnded()
            }
            return
        }
        let queue = ReportQueue<DiscoveryStep>(reporter: reporter)
        group.addTask {
            defer { queue.finish() }
            for await event in events {
                if Task.isCancelled { return .ok }
                guard let prepared = prepare(event.event, generation: event.generation) else { return .ioError }
                // False once the committer failed: it gives the exit status.
                guard await queue.append(.init(event: prepared.stored, payload: prepared.step)) else { return nil }
            }
            return nil
        }
        group.addTask {
            var handler = handler
            while true {
                let steps: [DiscoveryStep]?
                do throws(EventReportError) {
                    steps = try await queue.commitNext()
                } catch {
                    return Self.storeFailure(error, console: console)
                }
                guard let steps else { return Task.isCancelled ? .ok : await handler.eventsEnded() }
                for step in steps {
                    if Task.isCancelled { return .ok }
                    if let exit = await handler.handle(step) { return exit }
                }
            }
        }
    }

    /// The step of `event` and the bytes to store for it (nil for none); nil, said on standard
    /// error, when an event to store cannot be encoded.
    private func prepare(_ event: DiscoveryEvent, generation: Int?) -> (step: DiscoveryStep, stored: [UInt8]?)? {
        let change = WatchCommand.Printer.deviceChange(event)
        let line: WatchCommand.Line?
        let stores: Bool
        if case .eventsDropped(let missed) = event {
            stores = reporter != nil && storesMissedEvents
            line = encodesLines || stores ? WatchCommand.Printer.droppedLine(missed) : nil
        } else {
            stores = reporter != nil && change != nil
            line = change?.line
        }
        guard let line, encodesLines || stores else {
            return (DiscoveryStep(event: event, change: change, generation: generation), nil)
        }
        do {
            let json = try JSONOutput.bytes(line, format: .lines)
            return (
                DiscoveryStep(event: event, change: change, json: json, generation: generation), stores ? json : nil
            )
        } catch {
            guard stores else { return (DiscoveryStep(event: event, change: change, generation: generation), nil) }
            console.errorLine(
                "cast-scan: cannot store the event for the collector: \(TerminalText.sanitize(String(describing: error)))"
            )
            return nil
        }
    }

    /// Says why the spool could not take a batch; the exit status: 75 when another process
    /// kept it locked, 73 when what is now at its path is refused, else 74.
    private static func storeFailure(_ error: EventReportError, console: Console) -> ExitCode {
        console.errorLine(
            "cast-scan: cannot store the event for the collector: \(TerminalText.sanitize(String(describing: error)))")
        return error.isTemporary ? .eventsRemain : error.isRefusal ? .cannotCreate : .ioError
    }
}
