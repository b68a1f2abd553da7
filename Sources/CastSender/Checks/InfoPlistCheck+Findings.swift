import CastDiscovery

extension InfoPlistCheck {
    /// The findings and corrected snippet for a parsed Info.plist dictionary.
    func report(for plist: [String: PropertyListValue]) -> InfoPlistReport {
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
        _ plist: [String: PropertyListValue], findings: inout [CheckFinding], kept: inout [String]
    ) {
        guard let entries = bonjourEntries(plist, findings: &findings) else { return }
        var declared = BonjourDeclarations()
        for (index, element) in entries.enumerated() {
            guard let entry = element.string else {
                findings.append(
                    CheckFinding(
                        .bonjourServiceNotString,
                        message: "\(bonjourKey) item \(index) is \(element.typeName), "
                            + "not a string; iOS only reads strings there.",
                        fix: "Replace item \(index) with a service type string, or remove it."))
                continue
            }
            if let finding = entryFinding(entry, declared: &declared, kept: &kept) { findings.append(finding) }
        }
        findings += missingServiceFindings(declared)
    }

    /// What the `NSBonjourServices` entries declare, for the findings on what is missing.
    private struct BonjourDeclarations {
        var hasGoogleCast = false
        /// Application IDs declared correctly.
        var applications = Set<ApplicationID>()
        /// Application IDs declared in a form the SDK's browse may not match (reported already).
        var miswritten = Set<ApplicationID>()
    }

    /// The `NSBonjourServices` array; nil (after a finding) when it is missing or not an array.
    private func bonjourEntries(_ plist: [String: PropertyListValue], findings: inout [CheckFinding])
        -> [PropertyListValue]?
    {
        let requiredList = criteria.bonjourServices.map { SafeText.quoted($0) }.joined(separator: ", ")
        guard let value = plist[bonjourKey] else {
            findings.append(
                CheckFinding(
                    .missingBonjourServices,
                    message: "The Info.plist has no \(bonjourKey), so on iOS 14 and later the "
                        + "system blocks Cast discovery and no device is ever found.",
                    fix: "Add \(bonjourKey) as an array listing \(requiredList)."))
            return nil
        }
        guard let array = value.array else {
            findings.append(
                CheckFinding(
                    .bonjourServicesNotArray,
                    message: "\(bonjourKey) is \(value.typeName), not an array, so iOS "
                        + "ignores it and blocks Cast discovery.",
                    fix: "Make \(bonjourKey) an array of strings listing \(requiredList)."))
            return nil
        }
        return array
    }

    /// Classifies one string entry: records what it declares and what the snippet keeps, and
    /// returns the finding when it is written wrong.
    private func entryFinding(_ entry: String, declared: inout BonjourDeclarations, kept: inout [String])
        -> CheckFinding?
    {
        let quoted = SafeText.quoted(entry)
        switch BonjourServiceEntry(entry) {
        case .googleCast:
            declared.hasGoogleCast = true
            kept.append(entry)
            return nil
        case .application(let id):
            declared.applications.insert(id)
            kept.append(entry)
            return nil
        case .other:
            kept.append(entry)
            return nil
        case .withSubtypeLabel(let corrected, let id):
            if let id { declared.miswritten.insert(id) }
            kept.append(corrected)
            return CheckFinding(
                .serviceWithSubtypeLabel,
                message: "\(bonjourKey) entry \(quoted) is written with \"_sub\"; iOS "
                    + "expects the subtype without it, so this entry does not allow the "
                    + "browse the Cast SDK makes.",
                fix: "Write it as \(SafeText.quoted(corrected)).")
        case .lowercaseApplicationID(let corrected, let id):
            declared.miswritten.insert(id)
            kept.append(corrected)
            return CheckFinding(
                .lowercaseApplicationID,
                message: "\(bonjourKey) entry \(quoted) has a lower-case application ID; "
                    + "the Cast SDK browses the upper-case form, which this entry may not "
                    + "match.",
                fix: "Write it as \(SafeText.quoted(corrected)).")
        case .malformed:
            return CheckFinding(
                .malformedBonjourService,
                message: "\(bonjourKey) entry \(quoted) is not a service type like "
                    + "\"_name._tcp\" (or it holds control or invisible characters), so it "
                    + "allows nothing.",
                fix: "Correct the entry to the form \"_name._tcp\", or remove it.")
        }
    }

    /// The findings for `_googlecast._tcp` and each criteria application ID not declared.
    private func missingServiceFindings(_ declared: BonjourDeclarations) -> [CheckFinding] {
        var findings: [CheckFinding] = []
        if !declared.hasGoogleCast {
            findings.append(
                CheckFinding(
                    .missingGoogleCastService,
                    message: "\(bonjourKey) does not list \"\(DiscoveryCriteria.serviceType)\", so on "
                        + "iOS 14 and later the system blocks the browse for Cast devices.",
                    fix: "Add \"\(DiscoveryCriteria.serviceType)\" (exactly, in lower case) to "
                        + "\(bonjourKey)."))
        }
        for id in criteria.applicationIDs
        where !declared.applications.contains(id) && !declared.miswritten.contains(id) {
            let entry = "\(id.subtypeLabel).\(DiscoveryCriteria.serviceType)"
            findings.append(
                CheckFinding(
                    .missingApplicationService,
                    message: "\(bonjourKey) does not list \"\(entry)\", so on iOS 14 and later the "
                        + "system blocks the browse for devices that can run receiver app \(id)"
                        + (id == .defaultMediaReceiver ? " (the Default Media Receiver)." : "."),
                    fix: "Add \"\(entry)\" to \(bonjourKey) (no \"_sub\"; the ID in upper case)."))
        }
        return findings
    }

    /// Checks `NSLocalNetworkUsageDescription`; returns its text when it is a usable string.
    private func localNetworkFindings(_ plist: [String: PropertyListValue], findings: inout [CheckFinding])
        -> String?
    {
        let key = Self.localNetworkUsageDescriptionKey
        let sample = SafeText.quoted(
            InfoPlistSnippet.sampleLocalNetworkUsageDescription, limit: 200)
        guard let value = plist[key] else {
            findings.append(
                CheckFinding(
                    .missingLocalNetworkUsageDescription,
                    message: "The Info.plist has no \(key); iOS 14 and later need it to show the "
                        + "local network prompt, without which Cast discovery is blocked.",
                    fix: "Add \(key) with a sentence saying why the app uses the local network, "
                        + "for example \(sample)."))
            return nil
        }
        guard let text = value.string else {
            findings.append(
                CheckFinding(
                    .localNetworkUsageDescriptionNotString,
                    message: "\(key) is \(value.typeName), not a string, so iOS has no "
                        + "text for the local network prompt.",
                    fix: "Make \(key) a string, for example \(sample)."))
            return nil
        }
        if text.allSatisfy(\.isWhitespace) {
            findings.append(
                CheckFinding(
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
    private func bluetoothFindings(_ plist: [String: PropertyListValue], findings: inout [CheckFinding])
        -> (include: Bool, text: String?)
    {
        let key = Self.bluetoothUsageDescriptionKey
        let value = plist[key]
        let text = value?.string.flatMap { $0.allSatisfy(\.isWhitespace) ? nil : $0 }
        guard let project else {
            findings.append(
                CheckFinding(
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
                    : "has \(key) as \(value?.string != nil ? "blank text" : value?.typeName ?? "")"
                findings.append(
                    CheckFinding(
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
            findings.append(
                CheckFinding(
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
