extension ReplayRecording {
    /// The base service type a replay field names (`_googlecast._tcp` when absent); `path`
    /// names the field in the error.
    static func serviceType(_ text: String?, path: String) throws(DiscoveryError) -> ServiceType {
        guard let text else { return .googleCast }
        do throws(DNSSDNameError) {
            return try ServiceType(parsing: text).base
        } catch {
            throw badInput("\(path): \(error)")
        }
    }
}
