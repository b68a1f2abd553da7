import CastDiscovery
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Who may use a server and what every answer carries, from a web configuration file: its
/// `basic_auth_users` (a login, checked off the server's thread) and its
/// `http_server_config.headers`. The file, and the files it names, are looked at again at most
/// once a second (on the requests that come) and read again when they changed; a file that
/// no longer reads keeps the last good configuration, and the reason is logged once.
public final class WebAccess: Sendable {
    /// The file; nil: no file (no login, no header).
    public let path: String?
    private let clock: ContinuousClock
    private let log: @Sendable (String) -> Void
    private let state: LockedValue<State>
    private let checker: PasswordCheck
    /// The most (user, hash, password) outcomes kept.
    static let cacheCapacity = 100

    private struct State {
        var configuration: WebConfiguration
        var signature: [FileSignature?]
        var lastLook: ContinuousClock.Instant
        /// The signature of a change that did not read, said once.
        var refused: [FileSignature?]?
        /// Outcomes by a key of the user, the hash and the password (the hash in it, so that
        /// a changed hash is checked again: exporter-toolkit's fix of CVE-2022-46146).
        var outcomes: [String: Bool] = [:]
        var outcomeOrder: [String] = []
        /// Counts the configurations read (a TLS context is made again when it moves).
        var generation = 0
        /// The TLS context of a generation.
        var tls: (generation: Int, context: TLSServerContext)?
    }

    /// Reads the file at `path` (nil: none); throws when it does not read, with the reason.
    /// At most `waitingLogins` logins wait to be checked at once (keep it well under the
    /// server's connection limit, so that logins waiting cannot hold every connection).
    public init(
        path: String?, waitingLogins: Int = 16, clock: ContinuousClock, log: @escaping @Sendable (String) -> Void
    ) throws(WebConfigurationError) {
        self.path = path
        checker = PasswordCheck(capacity: max(1, waitingLogins))
        self.clock = clock
        self.log = log
        let configuration =
            try path.map { path throws(WebConfigurationError) in try WebConfiguration.read(path: path) }
            ?? WebConfiguration()
        state = LockedValue(
            State(
                configuration: configuration, signature: Self.signature(path, configuration), lastLook: clock.now))
    }

    /// The configuration in use.
    public var configuration: WebConfiguration { state.withLock { $0.configuration } }

    /// Reads the file again when it (or a file it names) changed, now; keeps the last good
    /// configuration when the new one does not read. What a `SIGHUP` asks for.
    public func reload() { refresh(force: true) }

    /// The TLS context of the configuration in use, made when it was read (again); throws
    /// when there is no `tls_server_config` or OpenSSL refuses it.
    func tlsContext() throws(WebConfigurationError) -> TLSServerContext {
        let (generation, configuration, made) = state.withLock { ($0.generation, $0.configuration, $0.tls) }
        if let made, made.generation == generation { return made.context }
        guard let tls = configuration.tls else { throw WebConfigurationError("the web configuration has no TLS") }
        let context = try TLSServerContext(tls)
        state.withLock { $0.tls = (generation, context) }
        return context
    }

    /// The TLS context for a new connection: the files looked at (at most once a second), a new
    /// context when they changed, or the last good one when it cannot be made (said); nil when
    /// there never was one.
    func currentTLSContext() -> TLSServerContext? {
        refresh(force: false)
        do {
            return try tlsContext()
        } catch {
            log("TLS: the changed files do not make a context; the last good one stays: \(error.message)")
            // Keep the last one as this generation's, so that it is said once.
            return state.withLock { state -> TLSServerContext? in
                guard let context = state.tls?.context else { return nil }
                state.tls = (state.generation, context)
                return context
            }
        }
    }

    /// The answer to `request`: `inner`'s, when no login is asked or the request's
    /// credentials are good; 401 with `WWW-Authenticate: Basic` otherwise; 429 when too many
    /// logins wait to be checked. Every answer carries the configured headers.
    public func answer(_ request: HTTPRequest, _ inner: @escaping @Sendable (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer {
        refresh(force: false)
        let configuration = self.configuration
        let headers = configuration.headers
        guard !configuration.users.isEmpty else { return Self.decorate(inner(request), headers) }
        guard let (user, password) = Self.credentials(request.header("Authorization")) else {
            return .now(Self.unauthorized(headers))
        }
        let known = configuration.users[user]
        let hash = known ?? PasswordCheck.unknownUserHash
        let key = [user, hash, password].map(Self.hex).joined(separator: ":")
        if let outcome = state.withLock({ $0.outcomes[key] }) {
            return outcome && known != nil ? Self.decorate(inner(request), headers) : .now(Self.unauthorized(headers))
        }
        return .later { [self] respond in
            let admitted = checker.submit(password, hash) { [self] matches in
                remember(key, matches)
                guard matches, known != nil else { return respond(Self.unauthorized(headers)) }
                switch Self.decorate(inner(request), headers) {
                case .now(let response): respond(response)
                case .later(let start): start(respond)
                }
            }
            if !admitted {
                respond(
                    Self.withHeaders(
                        .text(
                            429, "too many logins waiting to be checked; try again\n", headers: [("Retry-After", "1")]),
                        headers))
            }
        }
    }

    private func remember(_ key: String, _ outcome: Bool) {
        state.withLock { state in
            if state.outcomes.updateValue(outcome, forKey: key) == nil { state.outcomeOrder.append(key) }
            while state.outcomeOrder.count > Self.cacheCapacity {
                state.outcomes.removeValue(forKey: state.outcomeOrder.removeFirst())
            }
        }
    }

    /// Looks at the files at most once a second (always when forced) and reads them again when
    /// they changed.
    private func refresh(force: Bool) {
        guard let path else { return }
        let now = clock.now
        let due = state.withLock { state -> Bool in
            guard force || now - state.lastLook >= .seconds(1) else { return false }
            state.lastLook = now
            return true
        }
        guard due else { return }
        let current = state.withLock { ($0.signature, $0.refused) }
        let files = [path] + configuration.files
        let signature = files.map(FileSignature.init(path:))
        guard signature != current.0, signature != current.1 else { return }
        do {
            let configuration = try WebConfiguration.read(path: path)
            state.withLock { state in
                state.configuration = configuration
                state.signature = Self.signature(path, configuration)
                state.refused = nil
                state.generation += 1
                state.outcomes.removeAll()
                state.outcomeOrder.removeAll()
            }
            log("web configuration \(path) read again")
        } catch {
            state.withLock { $0.refused = signature }
            log("web configuration \(path) changed and does not read; the last good one stays: \(error.message)")
        }
    }

    private static func signature(_ path: String?, _ configuration: WebConfiguration) -> [FileSignature?] {
        guard let path else { return [] }
        return ([path] + configuration.files).map(FileSignature.init(path:))
    }

    /// The user and password of a `Basic` Authorization header; nil for any other.
    package static func credentials(_ header: String?) -> (String, String)? {
        guard let header, header.utf8.count <= 4096 else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let data = Data(base64Encoded: String(parts[1].drop { $0 == " " })),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    private static func hex(_ text: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in text.utf8 { out += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: out, as: UTF8.self)
    }

    static func unauthorized(_ headers: [(name: String, value: String)]) -> HTTPResponse {
        withHeaders(.text(401, "Unauthorized\n", headers: [("WWW-Authenticate", "Basic")]), headers)
    }

    static func withHeaders(_ response: HTTPResponse, _ headers: [(name: String, value: String)]) -> HTTPResponse {
        var response = response
        response.headers.removeAll { header in headers.contains { $0.name.lowercased() == header.name.lowercased() } }
        response.headers += headers
        return response
    }

    private static func decorate(_ answer: HTTPAnswer, _ headers: [(name: String, value: String)]) -> HTTPAnswer {
        guard !headers.isEmpty else { return answer }
        switch answer {
        case .now(let response): return .now(withHeaders(response, headers))
        case .later(let start): return .later { respond in start { respond(withHeaders($0, headers)) } }
        }
    }
}

/// What tells a file changed: its device, inode, size and modification time; nil when it
/// cannot be looked at.
struct FileSignature: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var seconds: Int
    var nanoseconds: Int

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        seconds = Int(info.st_mtim.tv_sec)
        nanoseconds = Int(info.st_mtim.tv_nsec)
    }
}
