internal import CCurl
import CastDiscovery

/// Posts one batch to the collector with libcurl (loaded on first use): JSON, a time limit, no
/// proxy, no redirect, http and https only. One call at a time per client; the call blocks.
final class CollectorClient: Sendable {
    /// What the collector made of a batch.
    enum Outcome: Sendable, Hashable {
        /// A 2xx answer: the batch is delivered.
        case delivered(status: Int)
        /// Any other answer, including a redirect (which is not followed).
        case refused(status: Int)
        /// No answer: the connection or the transfer failed.
        case failed(String)
    }

    /// libcurl, loaded and initialised once, before the first handle (see CCurl's shim).
    private static let loaded: Bool = cast_curl_load()

    let collector: EventCollector
    let timeout: Duration
    let userAgent: String

    init(collector: EventCollector, timeout: Duration = .seconds(10), userAgent: String) {
        self.collector = collector
        self.timeout = timeout
        self.userAgent = userAgent
    }

    /// POSTs `body` (`{"events": [...]}`) and waits for the answer or the time limit.
    func post(_ body: [UInt8]) -> Outcome {
        guard Self.loaded else { return .failed("libcurl (Debian's libcurl4) cannot be loaded") }
        guard let handle = cast_curl_easy_init() else { return .failed("libcurl cannot start a transfer") }
        defer { cast_curl_easy_cleanup(handle) }
        let headers: UnsafeMutablePointer<curl_slist>? = cast_curl_slist_append(nil, "Content-Type: application/json")
        defer { cast_curl_slist_free_all(headers) }
        let seconds = max(1, Int(timeout.seconds.rounded(.up)))
        var code = CURLE_OK
        func set(_ result: CURLcode) { if code == CURLE_OK { code = result } }
        set(cast_curl_set_string(handle, CURLOPT_URL, collector.url))
        set(cast_curl_set_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(cast_curl_set_string(handle, CURLOPT_PROXY, ""))
        set(cast_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 0))
        set(cast_curl_set_long(handle, CURLOPT_NOSIGNAL, 1))
        set(cast_curl_set_long(handle, CURLOPT_TIMEOUT, seconds))
        set(cast_curl_set_long(handle, CURLOPT_CONNECTTIMEOUT, min(seconds, 5)))
        set(cast_curl_set_string(handle, CURLOPT_USERAGENT, userAgent))
        set(cast_curl_set_list(handle, CURLOPT_HTTPHEADER, headers))
        if let credentials = collector.credentials {
            set(cast_curl_set_long(handle, CURLOPT_HTTPAUTH, cast_curl_auth_basic()))
            set(cast_curl_set_string(handle, CURLOPT_USERPWD, credentials))
        }
        // The answer's body is not needed: read and dropped.
        set(cast_curl_set_write_function(handle) { _, size, count, _ in size &* count })
        set(cast_curl_set_long(handle, CURLOPT_POST, 1))
        set(cast_curl_set_long(handle, CURLOPT_POSTFIELDSIZE, body.count))
        guard code == CURLE_OK else { return .failed(Self.message(code)) }
        let performed = body.withUnsafeBytes { bytes -> CURLcode in
            // COPYPOSTFIELDS copies the bytes, so they need not outlive this closure.
            let copied = cast_curl_set_pointer(
                handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
            guard copied == CURLE_OK else { return copied }
            return cast_curl_easy_perform(handle)
        }
        guard performed == CURLE_OK else { return .failed(Self.message(performed)) }
        var status = 0
        guard cast_curl_response_code(handle, &status) == CURLE_OK else { return .failed("no HTTP status") }
        return (200...299).contains(status) ? .delivered(status: status) : .refused(status: status)
    }

    private static func message(_ code: CURLcode) -> String {
        String(cString: cast_curl_easy_strerror(code))
    }
}
