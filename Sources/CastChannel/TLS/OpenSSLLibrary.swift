internal import COpenSSL

/// Debian's OpenSSL (libssl3 with its libcrypto), which the channel and the device-authentication
/// verifier use. It is loaded the first time one of them needs it, not at start, so that a
/// process that never opens a channel never maps it.
public enum OpenSSLLibrary {
    /// Loads OpenSSL if it is not loaded yet. Throws a ``CastChannelError`` (code `tls`) saying
    /// why when it cannot be, as when libssl3 is not installed.
    ///
    /// The channel's entry points call this themselves; call it first to learn at start that
    /// OpenSSL is missing rather than at the first receiver asked.
    public static func load() throws(CastChannelError) {
        if let problem = loadProblem {
            throw CastChannelError(.tls, "OpenSSL (libssl3) cannot be loaded: \(problem)")
        }
    }

    /// Whether OpenSSL is loaded (loading it if it is not yet).
    static var isAvailable: Bool { loadProblem == nil }

    /// Nil once loaded; else the loader's reason. Evaluated once, thread-safely.
    private static let loadProblem: String? = {
        var reason = [CChar](repeating: 0, count: 256)
        let loaded = reason.withUnsafeMutableBufferPointer { cast_openssl_load($0.baseAddress, $0.count) }
        guard !loaded else { return nil }
        return String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()
}
