import CastDiscovery

/// What a verifier keeps between verdicts, bounded: the certificates it parsed, by their DER
/// (a device presents the same TLS and device certificates on every connection, and devices
/// share intermediates), and the revocation lists it verified, by their bytes, with the span in
/// which each holds. Parsing a certificate is most of a cold verdict's time with OpenSSL 3.0
/// (its key decoder); a list's two signature checks are redone only when it changes. The
/// signatures over each answer and each path are checked every time.
final class DeviceAuthCache: Sendable {
    /// The most certificates kept, and the most DER bytes they hold together; past either the
    /// oldest go (a hostile network's certificates cost at most this much memory).
    let certificateCapacity: Int
    let certificateByteCapacity: Int
    /// The most revocation lists kept (only lists that verified are).
    let listCapacity: Int

    /// A cache of the given bounds (by default 1,024 certificates, 4 MiB of them, 16 lists).
    init(certificates: Int = 1024, certificateBytes: Int = 4 * 1024 * 1024, lists: Int = 16) {
        certificateCapacity = max(1, certificates)
        certificateByteCapacity = max(1, certificateBytes)
        listCapacity = max(1, lists)
    }

    private struct State {
        var certificates: [Key: X509Certificate] = [:]
        var certificateOrder: [Key] = []
        var certificateBytes = 0
        var lists: [Key: (list: CastRevocationList, from: Int64, until: Int64)] = [:]
        var listOrder: [Key] = []
    }

    /// Bytes as a dictionary key, hashed as one block (Swift's element-wise hashing of an
    /// array is many times slower), compared whole. A certificate is hashed whole, so
    /// certificates that differ only in their middle do not collide; a list (up to 256 KiB, and
    /// only lists that verified are kept) by its length and 4 KiB from each end.
    private struct Key: Hashable {
        let bytes: [UInt8]
        let whole: Bool

        init(_ bytes: [UInt8], whole: Bool = true) {
            self.bytes = bytes
            self.whole = whole
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(bytes.count)
            bytes.withUnsafeBytes { raw in
                if whole {
                    hasher.combine(bytes: raw)
                } else {
                    hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw.prefix(4096)))
                    hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: raw.suffix(4096)))
                }
            }
        }

        static func == (lhs: Key, rhs: Key) -> Bool { lhs.bytes == rhs.bytes }
    }

    private let state = LockedValue(State())

    /// How many certificates are kept, and their DER bytes.
    var certificateCount: (count: Int, bytes: Int) {
        state.withLock { ($0.certificates.count, $0.certificateBytes) }
    }

    /// The certificate of `der`, parsed once.
    func certificate(der: [UInt8]) -> X509Certificate? {
        let key = Key(der)
        if let kept = state.withLock({ $0.certificates[key] }) { return kept }
        guard let parsed = X509Certificate(der: der) else { return nil }
        state.withLock { state in
            guard state.certificates[key] == nil else { return }
            while !state.certificateOrder.isEmpty,
                state.certificateOrder.count >= certificateCapacity
                    || state.certificateBytes + der.count > certificateByteCapacity
            {
                let oldest = state.certificateOrder.removeFirst()
                state.certificates[oldest] = nil
                state.certificateBytes -= oldest.bytes.count
            }
            state.certificates[key] = parsed
            state.certificateOrder.append(key)
            state.certificateBytes += der.count
        }
        return parsed
    }

    /// The verified list of `bytes` when it was verified before and holds at `time`.
    func list(_ bytes: [UInt8], at time: Int64) -> CastRevocationList? {
        state.withLock { state in
            guard let kept = state.lists[Key(bytes, whole: false)], kept.from <= time, time <= kept.until else {
                return nil
            }
            return kept.list
        }
    }

    /// Keeps a list that verified, holding from `from` to `until`.
    func keep(_ list: CastRevocationList, bytes: [UInt8], from: Int64, until: Int64) {
        state.withLock { state in
            let key = Key(bytes, whole: false)
            if state.lists[key] == nil {
                if state.listOrder.count >= listCapacity { state.lists[state.listOrder.removeFirst()] = nil }
                state.listOrder.append(key)
            }
            state.lists[key] = (list, from, until)
        }
    }
}
