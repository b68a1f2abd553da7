import CastDiscovery
import Testing

@testable import CastChannel

/// The device-authentication messages against Google's protobuf: the hex vectors were written by
/// Google's Python protobuf 7.36.2 from pychromecast's `cast_channel_pb2` (the venv of
/// Tests/Scripts/cast-message-vectors-test.sh), which also says how it reads the edge cases.
@Suite("DeviceAuthMessage and the Cast CRL: Google's bytes, proto2's rules, bounds")
struct DeviceAuthMessageTests {
    static func bytes(_ hex: String) -> [UInt8] { HexText.bytes(hex) ?? [] }

    static let nonce = Array(UInt8(0)..<16)

    @Test("a challenge as Chrome sends it: a 16-byte nonce and SHA-256, Google's bytes")
    func challenge() throws {
        let message = DeviceAuthMessage(challenge: AuthChallenge(senderNonce: Self.nonce, hashAlgorithm: .sha256))
        let google = Self.bytes("0a141210000102030405060708090a0b0c0d0e0f1801")
        #expect(message.encoded() == google)
        #expect(try DeviceAuthMessage(decoding: google) == message)
    }

    @Test("a response with every field, Google's bytes both ways")
    func response() throws {
        let response = AuthResponse(
            signature: [1, 2, 3], clientAuthCertificate: [0x30, 0x03, 0x02, 0x01, 0x05],
            intermediateCertificates: [[0x30, 0x00], [0x30, 0x01, 0x00]], signatureAlgorithm: .rsassaPSS,
            senderNonce: Self.nonce, hashAlgorithm: .sha256, crl: [0x0a, 0x00])
        let google = Self.bytes(
            "122f0a03010203120530030201051a0230001a0330010020022a10000102030405060708090a0b0c0d0e0f30013a020a00")
        #expect(DeviceAuthMessage(response: response).encoded() == google)
        #expect(try DeviceAuthMessage(decoding: google) == DeviceAuthMessage(response: response))
    }

    @Test("an error, Google's bytes")
    func error() throws {
        #expect(try DeviceAuthMessage(decoding: Self.bytes("1a020801")) == DeviceAuthMessage(error: .noTLS))
        #expect(DeviceAuthMessage(error: .noTLS).encoded() == Self.bytes("1a020801"))
    }

    @Test("proto2's defaults and unknown values: PKCS#1 v1.5 and SHA-1 unsent, an unknown enum value keeps the last")
    func enums() throws {
        // Google reads each of these as the comment says (python protobuf, above).
        let minimal = try DeviceAuthMessage(decoding: Self.bytes("12070a010112023000"))
        #expect(minimal.response?.signatureAlgorithm == .rsassaPKCS1v15)
        #expect(minimal.response?.hashAlgorithm == .sha1)
        // hash_algorithm 1, then 7 (no such value); signature_algorithm 0 (UNSPECIFIED).
        let unknownHash = try DeviceAuthMessage(decoding: Self.bytes("120d0a01011202300030013007" + "2000"))
        #expect(unknownHash.response?.hashAlgorithm == .sha256)
        #expect(unknownHash.response?.signatureAlgorithm == .unspecified)
        // signature_algorithm 2, then 9 (no such value).
        let unknownSignature = try DeviceAuthMessage(decoding: Self.bytes("120d0a0101120230002002200930" + "01"))
        #expect(unknownSignature.response?.signatureAlgorithm == .rsassaPSS)
        // An error whose only type is unknown has none: its required field is missing.
        #expect(throws: CastChannelError.self) { try DeviceAuthMessage(decoding: Self.bytes("1a020809")) }
    }

    @Test("unknown fields and groups are skipped, as Google skips them")
    func unknownFields() throws {
        let message = try DeviceAuthMessage(decoding: Self.bytes("120b0a010112023000480553540801"))
        #expect(message.response?.signature == [1])
        #expect(message.response?.clientAuthCertificate == [0x30, 0x00])
    }

    @Test(
        "a response without its signature or device certificate is refused (required, as Open Screen's C++ parser refuses it)",
        arguments: ["120412023000", "12030a0101"])
    func required(hex: String) {
        #expect(throws: CastChannelError.self) { try DeviceAuthMessage(decoding: Self.bytes(hex)) }
    }

    @Test("broken bytes are refused with the field's offset, never read past the end")
    func broken() {
        for hex in ["12", "1205", "12050a0101", "0a8080808080808080808001", "1a0208"] {
            #expect(throws: CastChannelError.self, "\(hex)") { try DeviceAuthMessage(decoding: Self.bytes(hex)) }
        }
    }

    /// A response with `intermediates` certificates of `size` bytes each.
    static func response(intermediates: Int, size: Int = 2) -> [UInt8] {
        let response = AuthResponse(
            signature: [1], clientAuthCertificate: [0x30, 0x00],
            intermediateCertificates: Array(repeating: Array(repeating: 0x30, count: size), count: intermediates))
        return DeviceAuthMessage(response: response).encoded()
    }

    @Test("bounded: 16 intermediates taken, 17 and a hostile 200 refused, naming the field")
    func intermediateBound() throws {
        let limit = DeviceAuthMessage.maximumIntermediates
        #expect(
            try DeviceAuthMessage(decoding: Self.response(intermediates: limit)).response?.intermediateCertificates
                .count == limit)
        for count in [limit + 1, 200] {
            do {
                _ = try DeviceAuthMessage(decoding: Self.response(intermediates: count))
                Issue.record("\(count) intermediates taken")
            } catch {
                #expect(error.code == .protocol)
                #expect(error.message.contains("intermediate_certificate is given more than 16 times"), "\(error)")
            }
        }
    }

    @Test("bounded: a certificate of 16 KiB taken, one of 60 KiB refused; a long signature and nonce refused")
    func sizeBounds() throws {
        let limit = DeviceAuthMessage.maximumCertificateBytes
        #expect(try DeviceAuthMessage(decoding: Self.response(intermediates: 1, size: limit)).response != nil)
        do {
            _ = try DeviceAuthMessage(decoding: Self.response(intermediates: 1, size: 60 * 1024))
            Issue.record("a 60 KiB certificate taken")
        } catch {
            #expect(
                error.message.contains("intermediate_certificate has 61440 bytes (at most 16384 are taken)"), "\(error)"
            )
        }
        let longSignature = AuthResponse(
            signature: Array(repeating: 1, count: 1025), clientAuthCertificate: [0x30, 0x00])
        #expect(throws: CastChannelError.self) {
            try DeviceAuthMessage(decoding: DeviceAuthMessage(response: longSignature).encoded())
        }
        let longNonce = AuthChallenge(senderNonce: Array(repeating: 7, count: 257))
        #expect(throws: CastChannelError.self) {
            try DeviceAuthMessage(decoding: DeviceAuthMessage(challenge: longNonce).encoded())
        }
    }

    @Test("a CRL bundle and its signed list round-trip; a missing field stays missing")
    func crlRoundTrip() throws {
        let tbs = CastTBSCRL(
            notBeforeSeconds: 1_700_000_000, notAfterSeconds: 1_900_000_000,
            revokedPublicKeyHashes: [Array(repeating: 0xAB, count: 32)],
            revokedSerialNumberRanges: [
                CastSerialNumberRange(
                    issuerPublicKeyHash: Array(repeating: 0xCD, count: 32), firstSerialNumber: 10, lastSerialNumber: 20)
            ])
        let bundle = CastCRLBundle(crls: [
            CastCRL(tbsCRL: tbs.encoded(), signerCertificate: [0x30, 0x00], signature: [9])
        ])
        let decoded = try CastCRLBundle(decoding: bundle.encoded())
        #expect(decoded == bundle)
        #expect(try CastTBSCRL(decoding: decoded.crls[0].tbsCRL ?? []) == tbs)
        #expect(try CastCRLBundle(decoding: CastCRLBundle(crls: [CastCRL()]).encoded()).crls == [CastCRL()])
        #expect(try CastTBSCRL(decoding: []) == CastTBSCRL())
    }

    @Test("a TbsCrl's bytes by hand: version 0 unsent, each field by its number and wire type")
    func tbsBytes() throws {
        // not_before 5 (field 2), not_after 6 (field 3), a hash (field 4), a range (field 5:
        // issuer hash, first 1, last 2).
        let bytes = Self.bytes("1005" + "1806" + "2202aabb" + "2a08" + "0a02ccdd" + "1001" + "1802")
        let tbs = try CastTBSCRL(decoding: bytes)
        #expect(tbs.version == 0 && tbs.notBeforeSeconds == 5 && tbs.notAfterSeconds == 6)
        #expect(tbs.revokedPublicKeyHashes == [[0xAA, 0xBB]])
        #expect(
            tbs.revokedSerialNumberRanges == [
                CastSerialNumberRange(issuerPublicKeyHash: [0xCC, 0xDD], firstSerialNumber: 1, lastSerialNumber: 2)
            ])
        #expect(tbs.encoded() == bytes)
    }

    @Test("a CRL bundle is bounded: 16 lists, 256 KiB, a hash of at most 64 bytes")
    func crlBounds() throws {
        let sixteen = CastCRLBundle(crls: Array(repeating: CastCRL(tbsCRL: [0x08, 0x00]), count: 16))
        #expect(try CastCRLBundle(decoding: sixteen.encoded()).crls.count == 16)
        let seventeen = CastCRLBundle(crls: Array(repeating: CastCRL(tbsCRL: [0x08, 0x00]), count: 17))
        #expect(throws: CastChannelError.self) { try CastCRLBundle(decoding: seventeen.encoded()) }
        let huge = CastCRLBundle(crls: [CastCRL(tbsCRL: Array(repeating: 0, count: CastCRLBundle.maximumBytes))])
        #expect(throws: CastChannelError.self) { try CastCRLBundle(decoding: huge.encoded()) }
        let longHash = CastTBSCRL(revokedPublicKeyHashes: [Array(repeating: 1, count: 65)])
        #expect(throws: CastChannelError.self) { try CastTBSCRL(decoding: longHash.encoded()) }
    }
}
