import CastDiscovery
/// Why an Info.plist could not be checked at all.
///
/// Problems inside a readable property list dictionary (wrong value types, bad entries) are
/// not errors but ``CheckFinding``s. ``description`` quotes paths and reasons safely.
public enum InfoPlistError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file cannot be opened or read (missing, no permission, a directory…).
    case unreadable(path: String, reason: String)
    /// The path names something other than a regular file; `kind` says what (`a FIFO`).
    case notARegularFile(path: String, kind: String)
    /// The input is larger than the limit (``InfoPlistCheck/maximumSize``); `size` is the size
    /// found, or `limit + 1` when reading stopped there.
    case tooLarge(size: Int, limit: Int)
    /// The input is empty.
    case empty
    /// The input is not an XML, binary or OpenStep property list; `reason` is the parser's.
    case notAPropertyList(reason: String)
    /// Arrays and dictionaries are nested deeper than the limit
    /// (``InfoPlistCheck/maximumNestingDepth``).
    case tooDeeplyNested(limit: Int)
    /// A binary property list would expand to more than `limit` objects
    /// (``InfoPlistCheck/maximumObjectCount``), for example through shared references.
    case tooManyObjects(limit: Int)
    /// The property list's top level is not a dictionary; `actualType` names what it is.
    case notADictionary(actualType: String)

    /// A sentence saying what is wrong.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read Info.plist \(SafeText.quoted(path, limit: 256)): "
                + SafeText.quoted(reason, limit: 256)
        case .notARegularFile(let path, let kind):
            "Info.plist \(SafeText.quoted(path, limit: 256)) is \(kind), not a regular file"
        case .tooLarge(let size, let limit):
            "the Info.plist is too large (\(size > limit ? "over \(limit)" : "\(size)") bytes); "
                + "at most \(limit) bytes are read"
        case .empty:
            "the Info.plist is empty"
        case .notAPropertyList(let reason):
            "the file is not a property list (XML or binary): "
                + SafeText.quoted(reason, limit: 256)
        case .tooDeeplyNested(let limit):
            "the Info.plist nests arrays and dictionaries more than \(limit) levels deep"
        case .tooManyObjects(let limit):
            "the Info.plist would expand to more than \(limit) values"
        case .notADictionary(let actualType):
            "the Info.plist's top level is \(actualType), not a dictionary"
        }
    }
}
