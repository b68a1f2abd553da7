extension CastDevice {
    /// Makes a device from a resolved service under `policy`.
    ///
    /// With ``ValidationPolicy/lenient`` this never throws: every problem is recorded in
    /// ``problems`` and missing fields get stand-ins. With ``ValidationPolicy/strict`` a service
    /// that breaks any of Google's receiver rules is rejected with every rule it broke.
    public init(service: ResolvedService, policy: ValidationPolicy = .lenient) throws(DeviceRejection) {
        var problems: [DeviceProblem] = service.txt.issues.map { .txt($0) }
        let txt = service.txt

        func text(_ key: String) -> String? {
            guard case .bytes(let bytes)? = txt[key] else { return nil }
            if let valid = String(validating: bytes, as: UTF8.self) {
                if TextSafety.containsUnsafe(utf8: bytes) { problems.append(.controlCharacters(key: key)) }
                return valid
            }
            problems.append(.invalidUTF8(key: key))
            let decoded = String(decoding: bytes, as: UTF8.self)
            if TextSafety.containsUnsafe(decoded) { problems.append(.controlCharacters(key: key)) }
            return decoded
        }
        // A key written as a boolean attribute has no value: one problem, not also "missing".
        func isFlag(_ key: String) -> Bool {
            guard txt[key] == .flag else { return false }
            problems.append(.valueMissing(key: key))
            return true
        }

        let rawID = text("id")
        if let rawID, !rawID.isEmpty {
            id = CastDeviceID(rawID)
        } else {
            if !isFlag("id") { problems.append(.missingID) }
            id = CastDeviceID(service.instanceName)
        }

        let name = text("fn")
        if let name, !name.isEmpty {
            friendlyName = name
        } else {
            if !isFlag("fn") { problems.append(.missingFriendlyName) }
            friendlyName = service.instanceName
        }

        modelName = text("md").flatMap { $0.isEmpty ? nil : $0 }
        iconPath = text("ic").flatMap { $0.isEmpty ? nil : $0 }

        switch text("ve") {
        case nil:
            if !isFlag("ve") { problems.append(.missingProtocolVersion) }
            protocolVersion = nil
        case let raw?:
            let number = Self.decimal(raw)
            if let number, (2...99).contains(number) {
                protocolVersion = Int(number)
            } else {
                problems.append(.invalidProtocolVersion(raw))
                protocolVersion = number.flatMap { $0 <= UInt64(Int.max) ? Int($0) : nil }
            }
        }

        switch text("ca") {
        case nil:
            if !isFlag("ca") { problems.append(.missingCapabilities) }
            capabilities = []
        case let raw?:
            if let number = Self.decimal(raw) {
                capabilities = CastCapabilities(rawValue: number)
            } else {
                problems.append(.invalidCapabilities(raw))
                capabilities = []
            }
        }

        let rawStatus = text("st")
        status = CastDeviceStatus(txtValue: rawStatus)
        if let rawStatus {
            if status == .unknown { problems.append(.invalidStatus(rawStatus)) }
        } else if !isFlag("st") {
            problems.append(.missingStatus)
        }
        statusText = text("rs").flatMap { $0.isEmpty ? nil : $0 }

        if service.port == 0 { problems.append(.zeroPort) }
        if service.addresses.isEmpty { problems.append(.noAddress) }

        kind = CastDeviceKind(capabilities: capabilities, modelName: modelName, port: service.port)
        instanceName = service.instanceName
        hostName = service.hostName
        port = service.port
        addresses = service.addresses
        knownHost = service.knownHost
        undocumentedEntries = txt.entries.filter { entry in
            !Self.documentedKeyBytes.contains { entry.hasKey($0) }
        }
        self.txt = txt
        self.problems = problems

        if policy == .strict {
            let broken = problems.filter(\.violatesReceiverRules)
            if !broken.isEmpty { throw DeviceRejection(instanceName: service.instanceName, reasons: broken) }
        }
    }

    /// ``documentedKeys`` as bytes, for matching TXT entries without decoding their keys.
    private static let documentedKeyBytes = documentedKeys.map { Array($0.utf8) }

    /// The value of a non-empty string of ASCII digits (leading zeros allowed), else nil.
    private static func decimal(_ text: String) -> UInt64? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return UInt64(text)
    }
}
