import CastDiscovery
import Dispatch
internal import CCrypt

/// Checks passwords against bcrypt hashes with the system's libcrypt, one at a time on a queue
/// of its own, never on the server's thread (a check costs tens of milliseconds by design).
/// At most ``capacity`` checks wait; more are refused, so that a flood of logins cannot take
/// every core or grow without bound.
final class PasswordCheck: Sendable {
    /// What a user that is not configured is checked against (bcrypt of `fakepassword`, cost
    /// 10, as exporter-toolkit does): an unknown user costs what a known one costs.
    static let unknownUserHash = "$2y$10$QOauhQNbBCuQDKes6eFzPeMqBSjb7Mr5DUmpZ/VcEd00UAV/LDeSi"

    let capacity: Int
    private let queue = DispatchQueue(label: "cast-scan.password-check")
    private let waiting = LockedValue(0)

    init(capacity: Int = 64) { self.capacity = capacity }

    /// Whether `password` matches `hash`: false for a hash libcrypt cannot use, or without libcrypt.
    static func matches(_ password: String, _ hash: String) -> Bool {
        guard loaded, !password.utf8.contains(0), !hash.utf8.contains(0) else { return false }
        return cast_crypt_check(password, hash) == 1
    }

    /// Checks `password` against `hash` on the queue and calls `done` there with the result;
    /// false (and no call) when ``capacity`` checks wait already.
    func submit(_ password: String, _ hash: String, done: @escaping @Sendable (Bool) -> Void) -> Bool {
        let admitted = waiting.withLock { count -> Bool in
            guard count < capacity else { return false }
            count += 1
            return true
        }
        guard admitted else { return false }
        queue.async { [waiting] in
            let result = Self.matches(password, hash)
            waiting.withLock { $0 -= 1 }
            done(result)
        }
        return true
    }

    /// Whether libcrypt could be loaded; loads it the first time.
    private static let loaded: Bool = cast_crypt_load()
}
