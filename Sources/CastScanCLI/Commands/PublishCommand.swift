import CastChannel
import CastDiscovery
import CastDiscoveryMDNS
import CastReceiverPublisher

/// `cast-scan publish FILE`: simulated Cast receivers published through the daemon until
/// SIGINT or SIGTERM, which withdraw them (exit 0); changes on cue with `--script`.
struct PublishCommand: Command {
    static let file = PositionalDeclaration("FILE", help: "the devices, in the lab's format (Fixtures/lab/*.json)")

    static let declaration = CommandDeclaration(
        name: "publish",
        abstract: "Publish simulated Cast receivers on the network until interrupted, then withdraw them.",
        discussion: """
            Each device is published as a Cast receiver publishes itself: its instance name, TXT record, \
            _googlecast._tcp and one subtype per app ID, on this host. Friendly names get " (simulated)" \
            unless --exact-names. A name another host has is replaced by the daemon's next alternative, \
            said on stderr. Each device also answers the Cast channel (TLS, a certificate made at start) on its \
            port, or on a free one when another device has it (said on stderr, and in its SRV record), with \
            its status: the app its TXT says, the script's volume. No device authentication: a sender that \
            checks it (the Cast SDK in an iOS app, Chrome) lists a simulated device but cannot start a session. \
            A script's lines: [SECONDS] rename|start-app|stop-app|set|volume|withdraw|return DEVICE [ARGS].
            """,
        options: PublishOptions.declarations, positionals: [file], inheritsOptions: false)

    static var endsOnSignal: Bool { false }
    static var streamsOutput: Bool { true }

    let context: CommandContext
    let options: PublishOptions

    init(_ context: CommandContext) throws {
        self.context = context
        options = try PublishOptions(context.arguments)
    }

    func run() async throws -> ExitCode {
        let console = context.console
        guard let path = context.arguments.value(of: Self.file) else {
            throw UsageError.missingArgument(Self.file.name)
        }
        let file: ReceiverFile
        let script: ReceiverScript?
        do throws(ReceiverFileError) {
            file = try ReceiverFile(path: path)
            if let scriptPath = options.script, scriptPath != "-" {
                script = try ReceiverScript(path: scriptPath)
            } else {
                script = nil
            }
        } catch {
            throw CommandFailure(message: error.description, exitCode: .dataError)
        }
        // Everything the file and the script say is checked before a daemon is asked.
        let limit = options.backend.maximumReceivers
        let registrations = file.receivers.count * max(1, options.interfaceIndexes.count)
        guard registrations <= limit else {
            let perInterface =
                options.interfaceIndexes.count > 1
                ? " (\(file.receivers.count) on \(options.interfaceIndexes.count) interfaces)" : ""
            throw CommandFailure(
                message:
                    "\(path): \(registrations) registrations\(perInterface); --backend \(options.backend.rawValue) publishes at most \(limit) at once",
                exitCode: .dataError)
        }
        let publishing = CastReceiverPublisher.Options(
            exactNames: options.exactNames, interfaceIndexes: options.interfaceIndexes)
        do throws(DiscoveryError) {
            try CastReceiverPublisher.validate(file.receivers, options: publishing)
        } catch {
            throw CommandFailure(message: "\(path): \(error.message)", exitCode: .dataError)
        }
        if let script {
            do throws(DiscoveryError) {
                try CastReceiverPublisher.check(script.changes, receivers: file.receivers, options: publishing)
            } catch {
                throw CommandFailure(message: "\(options.script ?? ""): \(error.message)", exitCode: .dataError)
            }
        }
        let (channel, receivers) = try startChannel(file.receivers)
        defer { channel.stop() }
        let publisher: CastReceiverPublisher
        do throws(DiscoveryError) {
            let daemon = try options.backend.makePublisher()
            do throws(DiscoveryError) {
                publisher = try CastReceiverPublisher(receivers: receivers, publisher: daemon, options: publishing)
            } catch {
                daemon.close()
                throw error
            }
        } catch {
            throw CommandFailure(error)
        }
        defer { publisher.close() }
        let start = ContinuousClock.now
        do throws(DiscoveryError) {
            try publisher.start()
        } catch {
            throw CommandFailure(error)
        }
        let scope =
            options.interfaceNames.isEmpty
            ? "every interface avahi-daemon uses" : options.interfaceNames.joined(separator: ", ")
        console.errorLine(
            "cast-scan: publish: \(file.receivers.count) device\(file.receivers.count == 1 ? "" : "s") through \(options.backend.rawValue) on \(TerminalText.sanitize(scope)); Ctrl-C withdraws them"
        )

        let printer = PublishPrinter(console: console, receivers: publisher.receivers)
        let signals = context.termination
        let stdinScript = options.script == "-"
        let outcome = await withTaskGroup(of: ExitCode?.self) { group in
            group.addTask {
                for await event in publisher.events {
                    if let exit = printer.print(event) { return exit }
                }
                return nil
            }
            if let script {
                group.addTask {
                    for change in script.changes {
                        if let at = change.at {
                            try? await Task.sleep(until: start + at, clock: .continuous)
                        }
                        if Task.isCancelled { return nil }
                        if let exit = Self.apply(change, to: publisher, channel: channel, printer: printer) {
                            return exit
                        }
                    }
                    return nil
                }
            }
            if stdinScript {
                group.addTask {
                    for await line in StandardInputLines.stream(limit: ReceiverScript.maximumLineLength) {
                        if Task.isCancelled { return nil }
                        switch line {
                        case .text(let text):
                            let change: ReceiverChange?
                            do throws(ReceiverFileError) {
                                change = try ReceiverScript.change(fromLine: text)
                            } catch {
                                console.errorLine("cast-scan: publish: \(TerminalText.sanitize(error.description))")
                                continue
                            }
                            guard var change else { continue }
                            if let at = change.at { try? await Task.sleep(until: start + at, clock: .continuous) }
                            change.at = nil
                            _ = Self.apply(change, to: publisher, channel: channel, printer: printer, fatal: false)
                        case .tooLong:
                            console.errorLine(
                                "cast-scan: publish: standard input: a line longer than \(ReceiverScript.maximumLineLength) bytes, skipped"
                            )
                        case .failed(let reason):
                            console.errorLine(
                                "cast-scan: publish: standard input: \(TerminalText.sanitize(reason)); no more changes are read"
                            )
                            return nil
                        }
                    }
                    return nil
                }
            }
            group.endOnSignal(signals)
            return await group.firstExit()
        }
        let published = publisher.publishedCount
        publisher.close()
        console.errorLine("cast-scan: publish: withdrew \(published) device\(published == 1 ? "" : "s")")
        if publisher.droppedEvents > 0 {
            console.errorLine(
                "cast-scan: publish: \(publisher.droppedEvents) daemon events were dropped while this output was behind"
            )
        }
        return outcome
    }

    /// The Cast channel of every receiver, started: each on its file's port when that is free
    /// on the interfaces it is published on (every address without --interface), else on one
    /// the system picks, which the receiver then publishes (said on stderr).
    private func startChannel(_ receivers: [SimulatedReceiver]) throws(CommandFailure) -> (
        ReceiverChannelServer, [SimulatedReceiver]
    ) {
        let console = context.console
        var receivers = receivers
        let addresses =
            options.interfaceNames.isEmpty
            ? [] : NetworkInterface.all().filter { options.interfaceNames.contains($0.name) }.flatMap(\.addressTexts)
        let authority: DeviceAuthAuthority
        do throws(CastChannelError) {
            authority = try DeviceAuthAuthority(at: context.wallClock())
        } catch {
            throw CommandFailure(message: "device authentication: \(error.description)", exitCode: .software)
        }
        if let path = options.authRoot {
            do {
                try AtomicFile.write(Array(authority.rootPEM.utf8), to: path, createDirectories: true)
            } catch {
                throw CommandFailure(
                    message: "--auth-root: \(error.description)", exitCode: error.isRefusal ? .cannotCreate : .ioError)
            }
        }
        do throws(CastChannelError) {
            let server = try ReceiverChannelServer(
                certificate: try authority.tlsCertificate(commonName: "cast-scan publish"))
            do throws(CastChannelError) {
                for index in receivers.indices {
                    let asked = receivers[index].port
                    let identity = try authority.identity(
                        commonName: receivers[index].instanceName, audioOnly: Self.isAudioOnly(receivers[index]))
                    let port = try server.listen(
                        receiver: index, addresses: addresses, port: asked,
                        status: receivers[index].receiverStatus.jsonText, identity: identity)
                    guard port != asked else { continue }
                    receivers[index].port = port
                    console.errorLine(
                        "cast-scan: publish: \(TerminalText.sanitize(receivers[index].instanceName)): port \(asked) is taken; its Cast channel and SRV record use port \(port)"
                    )
                }
                try server.start()
            } catch {
                server.stop()
                throw error
            }
            return (server, receivers)
        } catch {
            throw CommandFailure(message: "the Cast channel: \(error.description)", exitCode: .unavailable)
        }
    }

    /// Whether a receiver authenticates as a speaker (Cast's audio-only policy): it has no
    /// video out (`ca`).
    static func isAudioOnly(_ receiver: SimulatedReceiver) -> Bool {
        let capabilities = CastCapabilities(rawValue: receiver.value(of: "ca").flatMap { UInt64($0) } ?? 0)
        return !capabilities.contains(.videoOut)
    }

    /// Applies a script's change and prints it, and gives the receiver's channel its status
    /// (broadcast when it changed); an error ends the command (a file's script was checked
    /// before publishing, so it is the daemon's) unless not `fatal`.
    private static func apply(
        _ change: ReceiverChange, to publisher: CastReceiverPublisher, channel: ReceiverChannelServer,
        printer: PublishPrinter,
        fatal: Bool = true
    ) -> ExitCode? {
        do throws(DiscoveryError) {
            let applied = try publisher.apply(change)
            channel.setStatus(receiver: applied.id, status: applied.receiver.receiverStatus.jsonText)
            printer.applied(change, applied)
            return nil
        } catch {
            printer.console.errorLine("cast-scan: publish: \(TerminalText.sanitize(error.description))")
            return fatal ? CommandFailure(error).exitCode : nil
        }
    }
}
