import FoundationEssentials

/// Times of certificates and revocation lists: seconds since 1970 (UTC), as a verdict says them.
enum CertificateTime {
    /// `seconds` as RFC 3339 (`2026-12-06T10:00:00Z`).
    static func text(_ seconds: Int64) -> String {
        Date(timeIntervalSince1970: Double(seconds)).formatted(.iso8601)
    }

    /// The time of `date`, whole seconds since 1970 (UTC), bounded to what certificates hold.
    static func seconds(_ date: Date) -> Int64 {
        let value = date.timeIntervalSince1970.rounded(.down)
        guard value.isFinite else { return 0 }
        return Int64(max(-62_135_596_800, min(253_402_300_799, value)))  // years 1 to 9999
    }
}
