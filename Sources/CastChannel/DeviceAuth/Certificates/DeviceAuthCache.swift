import CastDiscovery

/// What a verifier keeps between verdicts, bounded: the certificates it parsed, by their DER
/// (a device presents the same TLS and device certificates on every connection, and devices
/// share intermediates), and the revocation lists it verified, by their bytes, with the span in
/// which each holds. Parsing a certificate is most of a cold verdict's time with OpenSSL 3.0
/// (its key decoder); a list's two signature checks are redone only when it changes. The
/// signatures over each answer and each path are checked every time.
final class DeviceAuthCache: Sendable {
    /// The most certificates kept; past it the oldest go.
    static let certificateCapacity = 1024
    /// The most revocation lists kept.
    static let listCapacity = 16

    private struct State {
        var certificates: [Key: X509Certificate] = [:]
        var certificateOrder: [Key] = []
        var lists: [Key: (list: CastRevocationList, from: Int64, until: Int64)] = [:]
        var listOrder: [Key] = []
    }

    /// Bytes as a dictionary key: hashed by their length and at most 256 bytes from each end
    /// (a list can be 256 KiB), compared whole.
    private struct Key: Hashable {
        let bytes: [UInt8]

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytes.count)
            bytes.withUnsafeBytes { raw in
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw.prefix(256)))
                hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw.suffix(256)))
            }
        }
    }

    private let state = LockedValue(State())

    /// The certificate of `der`, parsed once.
    func certificate(der: [UInt8]) -> X509Certificate? {
        let key = Key(der)
        if let kept = state.withLock({ $0.certificates[key] }) { return kept }
        guard let parsed = X509Certificate(der: der) else { return nil }
        state.withLock { state in
            guard state.certificates[key] == nil else { return }
            if state.certificateOrder.count >= Self.certificateCapacity {
                state.certificates[state.certificateOrder.removeFirst()] = nil
            }
            state.certificates[key] = parsed
            state.certificateOrder.append(key)
        }
        return parsed
    }

    /// The verified list of `bytes` when it was verified before and holds at `time`.
    func list(_ bytes: [UInt8], at time: Int64) -> CastRevocationList? {
        state.withLock { state in
            guard let kept = state.lists[Key(bytes)], kept.from <= time, time <= kept.until else { return nil }
            return kept.list
        }
    }

    /// Keeps a list that verified, holding from `from` to `until`.
    func keep(_ list: CastRevocationList, bytes: [UInt8], from: Int64, until: Int64) {
        state.withLock { state in
            let key = Key(bytes)
            if state.lists[key] == nil {
                if state.listOrder.count >= Self.listCapacity { state.lists[state.listOrder.removeFirst()] = nil }
                state.listOrder.append(key)
            }
            state.lists[key] = (list, from, until)
        }
    }
}
