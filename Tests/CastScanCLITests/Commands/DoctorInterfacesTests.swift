import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@testable import CastScanCLI

/// `doctor`'s interface check, from getifaddrs, against what the kernel shows in /sys.
@Suite("doctor's multicast interfaces")
struct DoctorInterfacesTests {
    @Test(
        "the interfaces /sys/class/net shows up, with multicast, not loopback",
        .enabled(if: FileManager.default.fileExists(atPath: "/sys/class/net")))
    func matchesSys() throws {
        let root = "/sys/class/net"
        let expected = try FileManager.default.contentsOfDirectory(atPath: root).sorted().filter { name in
            guard let text = try? String(contentsOfFile: "\(root)/\(name)/flags", encoding: .utf8),
                let flags = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(2), radix: 16)
            else { return false }
            return flags & Int32(IFF_UP) != 0 && flags & Int32(IFF_LOOPBACK) == 0 && flags & Int32(IFF_MULTICAST) != 0
        }
        #expect(DoctorCommand.multicastInterfaces() == expected)
    }
}
