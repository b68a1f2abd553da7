/// What a discovery scan looks for, modelled on the sender SDK's `GCKDiscoveryCriteria`.
///
/// Criteria hold receiver application IDs and message namespaces. With neither, a scan matches
/// every Cast device (``all``). Each application ID and namespace becomes one DNS-SD subtype of
/// `_googlecast._tcp` (RFC 6763 section 7.1); receivers answer a subtype query only when they can
/// run that application or handle that namespace.
///
/// - ``applicationIDs`` are validated, upper-cased and de-duplicated, and keep the order in which
///   they were first given, like the SDK's ordered set: `["b", "A", "B"]` gives `[B, A]`.
/// - ``namespaces`` are validated, de-duplicated and sorted (Swift `String` ordering); their input
///   order carries no meaning. Equality follows Swift `String` equality (canonical equivalence).
///
/// Two criteria are equal when they have the same IDs in the same order and the same namespaces.
/// Criteria encode as `{"applicationIDs": [...], "namespaces": [...]}`; decoding accepts missing
/// keys as empty lists and validates everything like the initializers.
public struct DiscoveryCriteria: Hashable, Sendable, Codable {
    /// The DNS-SD service type every Cast receiver advertises.
    public static let serviceType = "_googlecast._tcp"

    /// The prefix every Cast message namespace must begin with.
    public static let namespacePrefix = "urn:x-cast:"

    /// The namespace of the Cast media channel, handled by every media-capable receiver app.
    public static let mediaNamespace = "urn:x-cast:com.google.cast.media"

    /// The longest namespace accepted, in UTF-16 code units (the Android sender SDK's limit).
    public static let maximumNamespaceLength = 128

    /// Criteria with no application IDs and no namespaces: they match every Cast device.
    public static let all = DiscoveryCriteria(
        validatedApplicationIDs: [ApplicationID](), namespaces: [])

    /// Criteria matching devices able to run the Default Media Receiver (`CC1AD845`).
    public static let defaultMediaReceiver = DiscoveryCriteria(
        validatedApplicationIDs: [ApplicationID.defaultMediaReceiver], namespaces: [])

    /// The validated, upper-case, de-duplicated application IDs, in first-given order.
    public let applicationIDs: [ApplicationID]

    /// The validated, de-duplicated namespaces, sorted.
    public let namespaces: [String]

    /// Creates criteria from application IDs and namespaces.
    ///
    /// Application IDs are validated by ``ApplicationID/init(_:)``. A namespace must be non-empty,
    /// start with `urn:x-cast:` (case-sensitive) followed by at least one character, and be at
    /// most ``maximumNamespaceLength`` UTF-16 code units long; these are the Android sender SDK's
    /// rules. Namespaces are not otherwise altered (no trimming, no case folding).
    ///
    /// - Throws: the ``DiscoveryCriteriaError`` for the first invalid application ID, or else for
    ///   the first invalid namespace, in the order given.
    public init(
        applicationIDs: some Sequence<String>,
        namespaces: some Sequence<String>
    ) throws(DiscoveryCriteriaError) {
        var ids: [ApplicationID] = []
        for string in applicationIDs {
            ids.append(try ApplicationID(string))
        }
        var validNamespaces: [String] = []
        for namespace in namespaces {
            try Self.validate(namespace: namespace)
            validNamespaces.append(namespace)
        }
        self.init(validatedApplicationIDs: ids, namespaces: validNamespaces)
    }

    /// Creates criteria matching devices able to run any of `applicationIDs`.
    ///
    /// An empty list gives ``all``.
    ///
    /// - Throws: the ``DiscoveryCriteriaError`` for the first invalid ID.
    public init(applicationIDs: some Sequence<String>) throws(DiscoveryCriteriaError) {
        try self.init(applicationIDs: applicationIDs, namespaces: [String]())
    }

    /// Creates criteria matching devices able to run `applicationID`.
    ///
    /// - Throws: the ``DiscoveryCriteriaError`` describing why the ID is invalid.
    public init(applicationID: String) throws(DiscoveryCriteriaError) {
        try self.init(applicationIDs: [applicationID], namespaces: [String]())
    }

    /// Creates criteria matching devices whose receiver handles any of `namespaces`
    /// (a `Set` or an array).
    ///
    /// - Throws: the ``DiscoveryCriteriaError`` for the first invalid namespace.
    public init(namespaces: some Sequence<String>) throws(DiscoveryCriteriaError) {
        try self.init(applicationIDs: [String](), namespaces: namespaces)
    }

    /// Creates criteria from already validated application IDs; it cannot fail.
    ///
    /// The IDs are de-duplicated keeping the first occurrence; there are no namespaces.
    public init(validatedApplicationIDs: some Sequence<ApplicationID>) {
        self.init(validatedApplicationIDs: validatedApplicationIDs, namespaces: [])
    }

    private init(validatedApplicationIDs: some Sequence<ApplicationID>, namespaces: [String]) {
        var seen = Set<ApplicationID>()
        applicationIDs = validatedApplicationIDs.filter { seen.insert($0).inserted }
        self.namespaces = Set(namespaces).sorted()
    }

    /// Whether there is at least one application ID.
    public var hasApplicationIDs: Bool { !applicationIDs.isEmpty }

    /// Whether there is at least one namespace.
    public var hasNamespaces: Bool { !namespaces.isEmpty }

    /// Whether the criteria have no application IDs and no namespaces, and so match every
    /// Cast device.
    public var matchesEveryDevice: Bool { applicationIDs.isEmpty && namespaces.isEmpty }

    /// Same as ``matchesEveryDevice``: no application IDs and no namespaces.
    public var isEmpty: Bool { matchesEveryDevice }

    /// The DNS-SD subtype labels to browse, like `GCKDiscoveryCriteria.allSubtypes`:
    /// `_<APPID>` for each application ID in order, then `_%<SHA-1>` for each namespace in order.
    ///
    /// For example `_CC1AD845` and `_%9E5E7C8F47989526C9BCD95D24084F6F0B27C5ED`
    /// (for `urn:x-cast:com.google.cast.media`).
    public var allSubtypes: [String] {
        applicationIDs.map(\.subtypeLabel) + namespaces.map(Self.subtypeLabel(forNamespace:))
    }

    /// The DNS-SD types to browse: ``serviceType`` first, then
    /// `<label>._sub._googlecast._tcp` for each label of ``allSubtypes``.
    public var browseTypes: [String] {
        [Self.serviceType] + allSubtypes.map { "\($0)._sub.\(Self.serviceType)" }
    }

    /// The `NSBonjourServices` entries an iOS 14+ app must declare in its `Info.plist` for these
    /// criteria: `_googlecast._tcp`, then `_<APPID>._googlecast._tcp` (no `_sub`) for each
    /// application ID in order, the Default Media Receiver included. Namespaces add no entries.
    public var bonjourServices: [String] {
        [Self.serviceType] + applicationIDs.map { "\($0.subtypeLabel).\(Self.serviceType)" }
    }

    /// The DNS-SD subtype label of a namespace: `_%` followed by the upper-case hex SHA-1 of its
    /// UTF-8 bytes. The namespace is not validated.
    public static func subtypeLabel(forNamespace namespace: String) -> String {
        "_%" + SHA1.hexDigest(namespace)
    }

    /// Checks `namespace` against the rules described on ``init(applicationIDs:namespaces:)``.
    ///
    /// - Throws: the ``DiscoveryCriteriaError`` describing the first rule broken.
    public static func validate(namespace: String) throws(DiscoveryCriteriaError) {
        if namespace.isEmpty { throw .emptyNamespace }
        if namespace.utf16.count > maximumNamespaceLength { throw .namespaceTooLong(namespace) }
        // Compare bytes, not Characters, so the check is exact and case-sensitive.
        guard namespace.utf8.starts(with: namespacePrefix.utf8) else {
            throw .namespaceMissingCastPrefix(namespace)
        }
        if namespace.utf8.count == namespacePrefix.utf8.count {
            throw .namespaceMissingSuffix(namespace)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case applicationIDs
        case namespaces
    }

    /// Decodes criteria, validating them like ``init(applicationIDs:namespaces:)``; a missing
    /// key counts as an empty list.
    ///
    /// - Throws: `DecodingError.dataCorrupted` (with the ``DiscoveryCriteriaError`` as its
    ///   underlying error) when an ID or a namespace is invalid.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let ids = try container.decodeIfPresent([String].self, forKey: .applicationIDs) ?? []
        let namespaces = try container.decodeIfPresent([String].self, forKey: .namespaces) ?? []
        do {
            try self.init(applicationIDs: ids, namespaces: namespaces)
        } catch {
            throw DecodingError.invalidValue(error, codingPath: container.codingPath)
        }
    }

    /// Encodes the upper-case application IDs (in order) and the sorted namespaces.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(applicationIDs.map(\.rawValue), forKey: .applicationIDs)
        try container.encode(namespaces, forKey: .namespaces)
    }
}
