import CastDiscovery

extension InfoPlistCheck {
    /// The findings and corrected snippet for a parsed Info.plist dictionary.
    func report(for plist: [String: Any]) -> InfoPlistReport {
        var findings: [CheckFinding] = []
        var kept: [String] = []
        serviceFindings(plist, findings: &findings, kept: &kept)
        let description = localNetworkFindings(plist, findings: &findings)
        let bluetooth = bluetoothFindings(plist, findings: &findings)
        let snippet = InfoPlistSnippet(
            criteria: criteria,
            keepingServices: kept,
            localNetworkUsageDescription: description,
            includeBluetoothUsageDescription: bluetooth.include,
            bluetoothUsageDescription: bluetooth.text)
        return InfoPlistReport(findings: findings.orderedBySeverity(), snippet: snippet)
    }

    private var bonjourKey: String { Self.bonjourServicesKey }

    /// Checks `NSBonjourServices`; `kept` receives the entries the snippet keeps (corrected).
    private func serviceFindings(
        _ plist: [String: Any], findings: inout [CheckFinding], kept: inout [String]
    ) {
        let required = criteria.bonjourServices
        let requiredList = required.map { SafeText.quoted($0) }.joined(separator: ", ")
        guard let value = plist[bonjourKey] else {
            findings.append(CheckFinding(
                .missingBonjourServices,
                message: "The Info.plist has no \(bonjourKey), so on iOS 14 and later the "
                    + "system blocks Cast discovery and no device is ever found.",
                fix: "Add \(bonjourKey) as an array listing \(requiredList)."))
            return
        }
        guard let array = value as? [Any] else {
            findings.append(CheckFinding(
                .bonjourServicesNotArray,
                message: "\(bonjourKey) is \(Self.typeName(of: value)), not an array, so iOS "
                    + "ignores it and blocks Cast discovery.",
                fix: "Make \(bonjourKey) an array of strings listing \(requiredList)."))
            return
        }
        var declared = Set<ApplicationID>()
        var hasGoogleCast = false
        var miswritten = Set<ApplicationID>()
        for (index, element) in array.enumerated() {
            guard let entry = element as? String else {
                findings.append(CheckFinding(
                    .bonjourServiceNotString,
                    message: "\(bonjourKey) item \(index) is \(Self.typeName(of: element)), "
                        + "not a string; iOS only reads strings there.",
                    fix: "Replace item \(index) with a service type string, or remove it."))
                continue
            }
            let quoted = SafeText.quoted(entry)
            switch BonjourServiceEntry(entry) {
            case .googleCast:
                hasGoogleCast = true
                kept.append(entry)
            case .application(let id):
                declared.insert(id)
                kept.append(entry)
            case .withSubtypeLabel(let corrected, let id):
                if let id { miswritten.insert(id) }
                kept.append(corrected)
                findings.append(CheckFinding(
                    .serviceWithSubtypeLabel,
                    message: "\(bonjourKey) entry \(quoted) is written with \"_sub\"; iOS "
                        + "expects the subtype without it, so this entry does not allow the "
                        + "browse the Cast SDK makes.",
                    fix: "Write it as \(SafeText.quoted(corrected))."))
            case .lowercaseApplicationID(let corrected, let id):
                miswritten.insert(id)
                kept.append(corrected)
                findings.append(CheckFinding(
                    .lowercaseApplicationID,
                    message: "\(bonjourKey) entry \(quoted) has a lower-case application ID; "
                        + "the Cast SDK browses the upper-case form, which this entry may not "
                        + "match.",
                    fix: "Write it as \(SafeText.quoted(corrected))."))
            case .other:
                kept.append(entry)
            case .malformed:
                findings.append(CheckFinding(
                    .malformedBonjourService,
                    message: "\(bonjourKey) entry \(quoted) is not a service type like "
                        + "\"_name._tcp\" (or it holds control or invisible characters), so it "
                        + "allows nothing.",
                    fix: "Correct the entry to the form \"_name._tcp\", or remove it."))
            }
        }
        if !hasGoogleCast {
            findings.append(CheckFinding(
                .missingGoogleCastService,
                message: "\(bonjourKey) does not list \"\(DiscoveryCriteria.serviceType)\", so on "
                    + "iOS 14 and later the system blocks the browse for Cast devices.",
                fix: "Add \"\(DiscoveryCriteria.serviceType)\" (exactly, in lower case) to "
                    + "\(bonjourKey)."))
        }
        for id in criteria.applicationIDs where !declared.contains(id) && !miswritten.contains(id)
        {
            let entry = "\(id.subtypeLabel).\(DiscoveryCriteria.serviceType)"
            findings.append(CheckFinding(
                .missingApplicationService,
                message: "\(bonjourKey) does not list \"\(entry)\", so on iOS 14 and later the "
                    + "system blocks the browse for devices that can run receiver app \(id)"
                    + (id == .defaultMediaReceiver ? " (the Default Media Receiver)." : "."),
                fix: "Add \"\(entry)\" to \(bonjourKey) (no \"_sub\"; the ID in upper case)."))
        }
    }

    /// Checks `NSLocalNetworkUsageDescription`; returns its text when it is a usable string.
    private func localNetworkFindings(_ plist: [String: Any], findings: inout [CheckFinding])
        -> String?
    {
        let key = Self.localNetworkUsageDescriptionKey
        let sample = SafeText.quoted(
            InfoPlistSnippet.sampleLocalNetworkUsageDescription, limit: 200)
        guard let value = plist[key] else {
            findings.append(CheckFinding(
                .missingLocalNetworkUsageDescription,
                message: "The Info.plist has no \(key); iOS 14 and later need it to show the "
                    + "local network prompt, without which Cast discovery is blocked.",
                fix: "Add \(key) with a sentence saying why the app uses the local network, "
                    + "for example \(sample)."))
            return nil
        }
        guard let text = value as? String else {
            findings.append(CheckFinding(
                .localNetworkUsageDescriptionNotString,
                message: "\(key) is \(Self.typeName(of: value)), not a string, so iOS has no "
                    + "text for the local network prompt.",
                fix: "Make \(key) a string, for example \(sample)."))
            return nil
        }
        if text.allSatisfy(\.isWhitespace) {
            findings.append(CheckFinding(
                .emptyLocalNetworkUsageDescription,
                message: "\(key) is \(text.isEmpty ? "empty" : "only white space"); iOS needs "
                    + "a non-empty explanation to show the local network prompt.",
                fix: "Write a sentence saying why the app uses the local network, for example "
                    + "\(sample)."))
            return nil
        }
        return text
    }

    /// Checks `NSBluetoothAlwaysUsageDescription`; returns whether the snippet includes it and
    /// the text found.
    private func bluetoothFindings(_ plist: [String: Any], findings: inout [CheckFinding])
        -> (include: Bool, text: String?)
    {
        let key = Self.bluetoothUsageDescriptionKey
        let value = plist[key]
        let text = (value as? String).flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
        guard let project else {
            findings.append(CheckFinding(
                .bluetoothNeedUnknown,
                message: "Whether \(key) is needed depends on the Cast SDK version, its "
                    + "no-Bluetooth variant and the deployment target, which were not given"
                    + (text == nil ? "; the Info.plist has none." : "; the Info.plist has one."),
                fix: "Give the SDK version and deployment target to decide; it is needed only "
                    + "for iOS 13 support with SDK < 4.8.1 without google-cast-sdk-no-bluetooth."))
            return (text != nil, text)
        }
        let advice = SDKAdvice(project: project)
        if advice.needsBluetoothUsageDescription {
            if text == nil {
                let state =
                    value == nil
                    ? "has no \(key)"
                    : "has \(key) as \(value is String ? "blank text" : Self.typeName(of: value!))"
                findings.append(CheckFinding(
                    .missingBluetoothUsageDescription,
                    message: "The Info.plist \(state), but Cast SDK \(project.sdkVersion) uses "
                        + "Bluetooth for guest mode on iOS 13 (deployment target iOS "
                        + "\(project.deploymentTarget)); the app is rejected or crashes without "
                        + "it.",
                    fix: "Add \(key) with a sentence saying why, or link "
                        + "google-cast-sdk-no-bluetooth, or raise the deployment target to iOS 14."
                ))
            }
            return (true, text)
        }
        if value != nil {
            findings.append(CheckFinding(
                .bluetoothUsageDescriptionNotNeeded,
                message: "\(key) is present, but Cast SDK \(project.sdkVersion) with deployment "
                    + "target iOS \(project.deploymentTarget)"
                    + (project.usesNoBluetoothVariant ? " (no-Bluetooth variant)" : "")
                    + " does not use Bluetooth.",
                fix: "Remove \(key) unless the app uses Bluetooth for something else."))
        }
        return (text != nil, text)
    }
}
