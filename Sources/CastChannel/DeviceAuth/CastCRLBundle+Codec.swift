extension CastCRLBundle {
    /// Decodes a bundle from its protobuf bytes; unknown fields are skipped by their wire type.
    ///
    /// - Throws: ``CastChannelError`` of kind `.protocol` when the bytes are not a bundle, or are
    ///   past a bound: ``maximumBytes`` in all, ``maximumCRLs`` lists.
    package init(decoding bytes: [UInt8]) throws(CastChannelError) {
        do throws(ProtobufDecodingFailure) {
            guard bytes.count <= Self.maximumBytes else {
                throw .tooLarge("CrlBundle", bytes: bytes.count, limit: Self.maximumBytes)
            }
            var reader = ProtobufReader(bytes)
            var crls: [CastCRL] = []
            while let (number, wireType) = try reader.nextTag() {
                guard number == 1, wireType == .lengthDelimited else {
                    try reader.skip(wireType, field: number)
                    continue
                }
                guard crls.count < Self.maximumCRLs else { throw .tooMany("CrlBundle.crls", limit: Self.maximumCRLs) }
                crls.append(try CastCRL.decode(Array(try reader.lengthDelimited())))
            }
            self.init(crls: crls)
        } catch {
            throw CastChannelError(.protocol, "a Cast CRL bundle that cannot be read: \(error)")
        }
    }

    /// The bundle's protobuf bytes.
    package func encoded() -> [UInt8] {
        var writer = ProtobufWriter()
        for crl in crls {
            var inner = ProtobufWriter()
            if let tbs = crl.tbsCRL { inner.bytesField(1, tbs) }
            if let certificate = crl.signerCertificate { inner.bytesField(2, certificate) }
            if let signature = crl.signature { inner.bytesField(3, signature) }
            writer.bytesField(1, inner.bytes)
        }
        return writer.bytes
    }
}

extension CastCRL {
    fileprivate static func decode(_ bytes: [UInt8]) throws(ProtobufDecodingFailure) -> CastCRL {
        var reader = ProtobufReader(bytes)
        var crl = CastCRL()
        while let (number, wireType) = try reader.nextTag() {
            switch (number, wireType) {
            case (1, .lengthDelimited): crl.tbsCRL = Array(try reader.lengthDelimited())
            case (2, .lengthDelimited):
                crl.signerCertificate = try reader.bounded(
                    "Crl.signer_cert", at: DeviceAuthMessage.maximumCertificateBytes)
            case (3, .lengthDelimited):
                crl.signature = try reader.bounded("Crl.signature", at: DeviceAuthMessage.maximumSignatureBytes)
            default: try reader.skip(wireType, field: number)
            }
        }
        return crl
    }
}

extension CastTBSCRL {
    /// Decodes the signed part of a list (``CastCRL/tbsCRL``).
    ///
    /// - Throws: ``CastChannelError`` of kind `.protocol` when the bytes are not a `TbsCrl`, or
    ///   list more than ``maximumEntries`` hashes or ranges.
    package init(decoding bytes: [UInt8]) throws(CastChannelError) {
        do throws(ProtobufDecodingFailure) {
            var reader = ProtobufReader(bytes)
            self.init()
            while let (number, wireType) = try reader.nextTag() {
                switch (number, wireType) {
                case (1, .varint): version = try reader.varint()
                case (2, .varint): notBeforeSeconds = try reader.varint()
                case (3, .varint): notAfterSeconds = try reader.varint()
                case (4, .lengthDelimited):
                    guard revokedPublicKeyHashes.count < Self.maximumEntries else {
                        throw .tooMany("TbsCrl.revoked_public_key_hashes", limit: Self.maximumEntries)
                    }
                    // A SHA-256 hash; anything longer cannot match one.
                    revokedPublicKeyHashes.append(try reader.bounded("TbsCrl.revoked_public_key_hashes", at: 64))
                case (5, .lengthDelimited):
                    guard revokedSerialNumberRanges.count < Self.maximumEntries else {
                        throw .tooMany("TbsCrl.revoked_serial_number_ranges", limit: Self.maximumEntries)
                    }
                    revokedSerialNumberRanges.append(
                        try CastSerialNumberRange.decode(Array(try reader.lengthDelimited())))
                default: try reader.skip(wireType, field: number)
                }
            }
        } catch {
            throw CastChannelError(.protocol, "a Cast TbsCrl that cannot be read: \(error)")
        }
    }

    /// The list's protobuf bytes, fields in number order (`version` only when it is not 0).
    package func encoded() -> [UInt8] {
        var writer = ProtobufWriter()
        if version != 0 { writer.varintField(1, version) }
        if let notBeforeSeconds { writer.varintField(2, notBeforeSeconds) }
        if let notAfterSeconds { writer.varintField(3, notAfterSeconds) }
        for hash in revokedPublicKeyHashes { writer.bytesField(4, hash) }
        for range in revokedSerialNumberRanges {
            var inner = ProtobufWriter()
            if let hash = range.issuerPublicKeyHash { inner.bytesField(1, hash) }
            if let first = range.firstSerialNumber { inner.varintField(2, first) }
            if let last = range.lastSerialNumber { inner.varintField(3, last) }
            writer.bytesField(5, inner.bytes)
        }
        return writer.bytes
    }
}

extension CastSerialNumberRange {
    fileprivate static func decode(_ bytes: [UInt8]) throws(ProtobufDecodingFailure) -> CastSerialNumberRange {
        var reader = ProtobufReader(bytes)
        var range = CastSerialNumberRange()
        while let (number, wireType) = try reader.nextTag() {
            switch (number, wireType) {
            case (1, .lengthDelimited):
                range.issuerPublicKeyHash = try reader.bounded("SerialNumberRange.issuer_public_key_hash", at: 64)
            case (2, .varint): range.firstSerialNumber = try reader.varint()
            case (3, .varint): range.lastSerialNumber = try reader.varint()
            default: try reader.skip(wireType, field: number)
            }
        }
        return range
    }
}
