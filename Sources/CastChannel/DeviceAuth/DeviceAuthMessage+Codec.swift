extension DeviceAuthMessage {
    /// The most intermediate certificates a response may carry: real receivers send one or two.
    package static let maximumIntermediates = 16
    /// The largest certificate (DER) taken: real device and intermediate certificates are about
    /// 1 KiB.
    package static let maximumCertificateBytes = 16 * 1024
    /// The largest signature taken: an RSA key of 8,192 bits signs in 1,024 bytes.
    package static let maximumSignatureBytes = 1024
    /// The largest nonce taken, challenge or echo (Chrome sends 16 bytes).
    package static let maximumNonceBytes = 256

    /// Decodes a message from its protobuf bytes (the BINARY payload of a CastMessage). Unknown
    /// fields are skipped by their wire type, of a field given twice the last counts, an enum
    /// value the proto does not define is an unknown field (proto2's rules).
    ///
    /// - Throws: ``CastChannelError`` of kind `.protocol` when the bytes are not such a message:
    ///   a broken field, a required field missing (a response's signature and device
    ///   certificate, an error's type), or a part past its bound (``maximumIntermediates``,
    ///   ``maximumCertificateBytes``, ``maximumSignatureBytes``, ``maximumNonceBytes``,
    ///   ``CastCRLBundle/maximumBytes`` for the CRL).
    package init(decoding bytes: [UInt8]) throws(CastChannelError) {
        do throws(ProtobufDecodingFailure) {
            var reader = ProtobufReader(bytes)
            self.init()
            while let (number, wireType) = try reader.nextTag() {
                guard wireType == .lengthDelimited, (1...3).contains(number) else {
                    try reader.skip(wireType, field: number)
                    continue
                }
                let body = Array(try reader.lengthDelimited())
                // A message field given twice is merged in proto2; no receiver sends one twice,
                // and the last one whole is what counts here.
                switch number {
                case 1: challenge = try AuthChallenge.decode(body)
                case 2: response = try AuthResponse.decode(body)
                default: error = try Self.decodeError(body)
                }
            }
        } catch {
            throw CastChannelError(.protocol, "a DeviceAuthMessage that cannot be read: \(error)")
        }
    }

    /// The message's protobuf bytes, fields in number order.
    package func encoded() -> [UInt8] {
        var writer = ProtobufWriter()
        if let challenge { writer.bytesField(1, challenge.encoded()) }
        if let response { writer.bytesField(2, response.encoded()) }
        if let error {
            var inner = ProtobufWriter()
            inner.varintField(1, UInt64(error.rawValue))
            writer.bytesField(3, inner.bytes)
        }
        return writer.bytes
    }

    private static func decodeError(_ bytes: [UInt8]) throws(ProtobufDecodingFailure) -> AuthError {
        var reader = ProtobufReader(bytes)
        var type: AuthError?
        while let (number, wireType) = try reader.nextTag() {
            guard number == 1, wireType == .varint else {
                try reader.skip(wireType, field: number)
                continue
            }
            if let value = AuthError(protobufValue: try reader.varint()) { type = value }
        }
        guard let type else { throw .missing("AuthError.error_type") }
        return type
    }
}

extension AuthChallenge {
    fileprivate static func decode(_ bytes: [UInt8]) throws(ProtobufDecodingFailure) -> AuthChallenge {
        var reader = ProtobufReader(bytes)
        var challenge = AuthChallenge()
        while let (number, wireType) = try reader.nextTag() {
            switch (number, wireType) {
            case (1, .varint):
                if let algorithm = DeviceAuthSignatureAlgorithm(protobufValue: try reader.varint()) {
                    challenge.signatureAlgorithm = algorithm
                }
            case (2, .lengthDelimited):
                challenge.senderNonce = try reader.bounded(
                    "AuthChallenge.sender_nonce", at: DeviceAuthMessage.maximumNonceBytes)
            case (3, .varint):
                if let algorithm = DeviceAuthHashAlgorithm(protobufValue: try reader.varint()) {
                    challenge.hashAlgorithm = algorithm
                }
            default:
                try reader.skip(wireType, field: number)
            }
        }
        return challenge
    }

    /// The challenge's protobuf bytes (an `AuthChallenge`, without the `DeviceAuthMessage`
    /// around it), fields in number order.
    package func encoded() -> [UInt8] {
        var writer = ProtobufWriter()
        if let signatureAlgorithm { writer.varintField(1, UInt64(signatureAlgorithm.rawValue)) }
        if let senderNonce { writer.bytesField(2, senderNonce) }
        if let hashAlgorithm { writer.varintField(3, UInt64(hashAlgorithm.rawValue)) }
        return writer.bytes
    }
}

extension AuthResponse {
    fileprivate static func decode(_ bytes: [UInt8]) throws(ProtobufDecodingFailure) -> AuthResponse {
        typealias Limits = DeviceAuthMessage
        var reader = ProtobufReader(bytes)
        var signature: [UInt8]?
        var certificate: [UInt8]?
        var response = AuthResponse(signature: [], clientAuthCertificate: [])
        while let (number, wireType) = try reader.nextTag() {
            switch (number, wireType) {
            case (1, .lengthDelimited):
                signature = try reader.bounded("AuthResponse.signature", at: Limits.maximumSignatureBytes)
            case (2, .lengthDelimited):
                certificate = try reader.bounded(
                    "AuthResponse.client_auth_certificate", at: Limits.maximumCertificateBytes)
            case (3, .lengthDelimited):
                guard response.intermediateCertificates.count < Limits.maximumIntermediates else {
                    throw .tooMany("AuthResponse.intermediate_certificate", limit: Limits.maximumIntermediates)
                }
                response.intermediateCertificates.append(
                    try reader.bounded("AuthResponse.intermediate_certificate", at: Limits.maximumCertificateBytes))
            case (4, .varint):
                if let algorithm = DeviceAuthSignatureAlgorithm(protobufValue: try reader.varint()) {
                    response.signatureAlgorithm = algorithm
                }
            case (5, .lengthDelimited):
                response.senderNonce = try reader.bounded("AuthResponse.sender_nonce", at: Limits.maximumNonceBytes)
            case (6, .varint):
                if let algorithm = DeviceAuthHashAlgorithm(protobufValue: try reader.varint()) {
                    response.hashAlgorithm = algorithm
                }
            case (7, .lengthDelimited):
                response.crl = try reader.bounded("AuthResponse.crl", at: CastCRLBundle.maximumBytes)
            default:
                try reader.skip(wireType, field: number)
            }
        }
        guard let signature else { throw .missing("AuthResponse.signature") }
        guard let certificate else { throw .missing("AuthResponse.client_auth_certificate") }
        response.signature = signature
        response.clientAuthCertificate = certificate
        return response
    }

    /// The response's protobuf bytes (an `AuthResponse`), fields in number order; the two
    /// algorithms are written only when they are not proto2's defaults.
    package func encoded() -> [UInt8] {
        var writer = ProtobufWriter()
        writer.bytesField(1, signature)
        writer.bytesField(2, clientAuthCertificate)
        for certificate in intermediateCertificates { writer.bytesField(3, certificate) }
        if signatureAlgorithm != .rsassaPKCS1v15 { writer.varintField(4, UInt64(signatureAlgorithm.rawValue)) }
        if let senderNonce { writer.bytesField(5, senderNonce) }
        if hashAlgorithm != .sha1 { writer.varintField(6, UInt64(hashAlgorithm.rawValue)) }
        if let crl { writer.bytesField(7, crl) }
        return writer.bytes
    }
}

extension RawRepresentable where RawValue == UInt8 {
    /// The case of a proto2 enum field's varint: an `int32` keeps the low 32 bits; a value the
    /// enum does not define is nil (an unknown field, so an earlier value stays).
    fileprivate init?(protobufValue: UInt64) {
        let value = Int32(truncatingIfNeeded: protobufValue)
        guard let small = UInt8(exactly: value) else { return nil }
        self.init(rawValue: small)
    }
}

extension ProtobufReader {
    /// A length-delimited value of at most `limit` bytes, `field` named when it is longer.
    mutating func bounded(_ field: String, at limit: Int) throws(ProtobufDecodingFailure) -> [UInt8] {
        let value = try lengthDelimited()
        guard value.count <= limit else { throw .tooLarge(field, bytes: value.count, limit: limit) }
        return Array(value)
    }
}
