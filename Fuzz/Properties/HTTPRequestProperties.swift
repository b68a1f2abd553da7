import CastDiscovery
import CastScanCLI
import CastScanServing
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `cast-scan serve`'s request handling: the request libmicrohttpd hands over (`HTTPRequest`:
/// method, path, the headers the server reads), `ExpositionFormat(accept:)`,
/// `ContentCoding(acceptEncoding:)`, `WebAccess.credentials(_:)` and `ServeRoutes.respond(to:at:)`.
///
/// The input is a request head as a client sends it (`METHOD TARGET HTTP/1.1`, header lines,
/// an empty line), cut as libmicrohttpd cuts it: the path is the target before `?`, its `%XX`
/// decoded and cut at a NUL; each header the server reads is its first line. What follows the head is the TXT
/// record (wire format) of one more device in the fleet, beside two from the fixtures, so the
/// pages show names from the input. Asked of a fleet that runs and of one that is down:
/// - Never traps. GET and HEAD of `/metrics`, `/devices`, `/sd`, `/-/healthy`, `/-/ready`,
///   `/healthz` and `/` answer 200 (503 for `/healthz` and `/-/ready` when down), any other path
///   404, any other method 405 with `Allow: GET, HEAD`.
/// - `/metrics` answers in the format `Accept` asks for (OpenMetrics ends with `# EOF`), gzip only
///   when `Accept-Encoding` asks for it, with `Vary`.
/// - No header holds a control character; no body holds a raw control character but `\n`.
/// - `/devices` is JSON; the page never shows a name holding `<` unescaped.
public enum HTTPRequestProperties {
    static let property = Property(target: "http-request")
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// Two devices of the fixtures' kind.
    static let fixedDevices: [CastDevice] = [
        [
            "id=0123456789abcdef0123456789abcdef", "fn=Living Room TV", "md=Chromecast", "ca=4101", "st=1",
            "rs=YouTube", "ve=05",
        ],
        [
            "id=fedcba9876543210fedcba9876543210", "fn=Kitchen <speaker> & co", "md=Google Nest Mini", "ca=2052",
            "st=0", "ve=05",
        ],
    ].enumerated().map { index, strings in
        let service = ResolvedService(
            instanceName: "Fixed-\(index)", hostName: "fixed-\(index).local", port: 8009,
            addresses: [ServiceAddress("192.168.1.\(20 + index)", interfaceName: "eth0")!],
            txt: TXTRecord(strings: strings.map { Array($0.utf8) }))
        return (try? CastDevice(service: service)) ?? { preconditionFailure("the lenient device parse threw") }()
    }

    public static func check(_ bytes: [UInt8]) throws(PropertyFailure) {
        let (request, body) = parse(bytes)
        _ = WebAccess.credentials(request.header("Authorization"))
        let device = try TXTRecordProperties.checkDevice(TXTRecord(wireFormat: body), instanceName: "Fuzz-HTTP")
        for running in [true, false] {
            var fleet = Fleet(
                backend: "mdns", reason: "fuzz", started: now.addingTimeInterval(-60), forgetAfter: .seconds(600),
                goneLimit: 10)
            fleet.list(fixedDevices + [device], at: now)
            if running {
                fleet.backendState = .running
                fleet.firstScanDone = true
            }
            let routes = ServeRoutes(monitor: FleetMonitor(fleet), maxDevices: 10)
            let response = routes.respond(to: request, at: now)
            try checkResponse(response, to: request, running: running, device: device)
        }
    }

    /// The request libmicrohttpd would hand over, and the bytes after the head.
    static func parse(_ bytes: [UInt8]) -> (HTTPRequest, [UInt8]) {
        let end = bytes.firstRange(of: [13, 10, 13, 10])
        let head = end.map { bytes[..<$0.lowerBound] } ?? bytes[...]
        let body = end.map { Array(bytes[$0.upperBound...]) } ?? []
        let lines = head.split(separator: 10, omittingEmptySubsequences: false).map { line in
            line.last == 13 ? line.dropLast() : line
        }
        let requestLine = lines.first ?? []
        let words = requestLine.split(separator: 32, omittingEmptySubsequences: true)
        let method = words.first.map { cString($0) } ?? ""
        let target = words.count > 1 ? words[1] : []
        let pathBytes = target.prefix { $0 != UInt8(ascii: "?") }
        let path = cString(percentDecoded(pathBytes))
        var headers: [String: String] = [:]
        let wanted = Set(HTTPRequest.headerNames.map { $0.lowercased() })
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            guard wanted.contains(name), headers[name] == nil else { continue }
            headers[name] = cString(line[(colon + 1)...].drop { $0 == 32 || $0 == 9 })
        }
        return (HTTPRequest(method: method, path: path.isEmpty ? "/" : path, headers: headers), body)
    }

    /// Bytes as `String(cString:)` reads them: up to the first NUL, invalid UTF-8 repaired.
    private static func cString(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    private static func percentDecoded(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let bytes = Array(bytes)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func checkResponse(
        _ response: HTTPResponse, to request: HTTPRequest, running: Bool, device: CastDevice
    )
        throws(PropertyFailure)
    {
        let what = "\(request.method) \(RawControl.escaped(request.path, around: 0)) (\(running ? "running" : "down"))"
        for (name, value) in [("Content-Type", response.contentType)] + response.headers.map({ ($0.name, $0.value) }) {
            try property.requireNoRawControl(name + value, in: "a header of \(what)")
        }
        let gzip = response.headers.contains { $0.name == "Content-Encoding" && $0.value == "gzip" }
        if gzip {
            // The body is gzip's bytes: asked for, and said to vary by it.
            try property.require(
                ContentCoding(acceptEncoding: request.header("Accept-Encoding")) == .gzip
                    && response.headers.contains { $0.name == "Vary" && $0.value.contains("Accept-Encoding") }
                    && response.body.starts(with: [0x1F, 0x8B]),
                "\(what) is gzip, unasked or without Vary")
            return
        }
        try property.require(
            ContentCoding(acceptEncoding: request.header("Accept-Encoding")) == .identity
                || !["/metrics", "/devices", "/sd"].contains(request.path) || response.status != 200,
            "\(what) is not gzip although asked")
        let text = String(decoding: response.body, as: UTF8.self)
        try property.require(
            String(validating: response.body, as: UTF8.self) != nil, "the body of \(what) is not UTF-8")
        try property.requireNoRawControl(text, allowing: ["\n"], in: "the body of \(what)")
        guard request.method == "GET" || request.method == "HEAD" else {
            try property.require(
                response.status == 405 && response.headers.contains { $0.name == "Allow" && $0.value == "GET, HEAD" },
                "\(what) answered \(response.status), not 405 with Allow")
            return
        }
        switch request.path {
        case "/metrics":
            let format = ExpositionFormat(accept: request.accept)
            try property.require(
                response.status == 200 && response.contentType == format.contentType,
                "\(what) answered \(response.status) \(response.contentType) for Accept \(String(describing: request.accept))"
            )
            if format == .openMetrics {
                try property.require(text.hasSuffix("# EOF\n"), "an OpenMetrics body does not end with # EOF")
            }
        case "/devices", "/sd":
            try property.require(
                response.status == 200 && response.contentType == "application/json",
                "\(what) answered \(response.status)")
            do {
                try JSONSyntax.check(response.body)
            } catch {
                throw property.fail("the body of \(what) is not JSON: \(error)")
            }
        case "/healthz", "/-/ready":
            try property.require(response.status == (running ? 200 : 503), "\(what) answered \(response.status)")
        case "/-/healthy":
            try property.require(response.status == 200, "\(what) answered \(response.status)")
        case "/":
            try property.require(
                response.status == 200 && response.contentType.hasPrefix("text/html"),
                "\(what) answered \(response.status)")
            let name = device.friendlyName
            // Looked for in its cell: a short name ("<b") is also a piece of the page's own markup.
            if name.contains("<") {
                try property.require(
                    !text.contains("<td class=\"name\">\(name)</td>"),
                    "the page shows the name \(RawControl.escaped(name, around: 0)) unescaped")
            }
        default:
            try property.require(response.status == 404, "\(what) answered \(response.status), not 404")
        }
    }
}
