extension CastDevice {
    /// Makes a device from a resolved service under `policy`.
    ///
    /// With ``ValidationPolicy/lenient`` this never throws: every problem is recorded in
    /// ``problems`` and missing fields get stand-ins. With ``ValidationPolicy/strict`` a service
    /// that breaks any of Google's receiver rules is rejected with every rule it broke.
    public init(service: ResolvedService, policy: ValidationPolicy = .lenient) throws(DeviceRejection) {
        var fields = CastTXTFields(service.txt)
        id = CastDeviceID(fields.text(.id, or: service.instanceName, missing: .missingID))
        friendlyName = fields.text(.fn, or: service.instanceName, missing: .missingFriendlyName)
        modelName = fields.nonEmptyText(.md)
        iconPath = fields.nonEmptyText(.ic)
        protocolVersion = Self.protocolVersion(&fields)
        capabilities = Self.capabilities(&fields)
        status = Self.status(&fields)
        statusText = fields.nonEmptyText(.rs)
        if service.port == 0 { fields.record(.zeroPort) }
        if service.addresses.isEmpty { fields.record(.noAddress) }

        kind = CastDeviceKind(capabilities: capabilities, modelName: modelName, port: service.port)
        instanceName = service.instanceName
        hostName = service.hostName
        port = service.port
        addresses = service.addresses
        knownHost = service.knownHost
        txt = service.txt
        problems = fields.problems

        if policy == .strict {
            let broken = problems.filter(\.violatesReceiverRules)
            if !broken.isEmpty { throw DeviceRejection(instanceName: service.instanceName, reasons: broken) }
        }
    }

    /// TXT `ve`: valid from 2 to 99; another number is kept (when it fits an Int) and reported.
    private static func protocolVersion(_ fields: inout CastTXTFields) -> Int? {
        guard let (number, text) = fields.decimal(.ve) else {
            fields.recordAbsence(.ve, .missingProtocolVersion)
            return nil
        }
        if let number, (2...99).contains(number) { return Int(number) }
        fields.record(.invalidProtocolVersion(number == nil ? text : fields.digits(.ve)))
        return number.flatMap { $0 <= UInt64(Int.max) ? Int($0) : nil }
    }

    /// TXT `ca`: a decimal bitmask; anything else is reported and read as no capabilities.
    private static func capabilities(_ fields: inout CastTXTFields) -> CastCapabilities {
        guard let (number, text) = fields.decimal(.ca) else {
            fields.recordAbsence(.ca, .missingCapabilities)
            return []
        }
        guard let number else {
            fields.record(.invalidCapabilities(text))
            return []
        }
        return CastCapabilities(rawValue: number)
    }

    /// TXT `st`: 0 idle, 1 busy; anything else is reported and read as unknown.
    private static func status(_ fields: inout CastTXTFields) -> CastDeviceStatus {
        switch fields.value(.st) {
        case .bytes(let bytes) where bytes.elementsEqual([UInt8(ascii: "0")]): return .idle
        case .bytes(let bytes) where bytes.elementsEqual([UInt8(ascii: "1")]): return .busy
        case .bytes:
            fields.record(.invalidStatus(fields.text(.st) ?? ""))
        case .flag, .absent:
            fields.recordAbsence(.st, .missingStatus)
        }
        return .unknown
    }
}
