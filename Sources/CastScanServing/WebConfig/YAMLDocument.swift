internal import CYAML

/// A YAML node as the web configuration reads it, with the line it starts on (from 1).
indirect enum YAMLNode: Sendable, Hashable {
    /// A scalar: its text, whether it was written plain (only plain scalars resolve to null,
    /// booleans and numbers), its line.
    case scalar(String, plain: Bool, line: Int)
    case sequence([YAMLNode], line: Int)
    case mapping([YAMLPair], line: Int)

    /// The line the node starts on.
    var line: Int {
        switch self {
        case .scalar(_, _, let line), .sequence(_, let line), .mapping(_, let line): line
        }
    }

    /// Whether it is a plain null (`~`, `null`, an empty plain scalar), as YAML 1.1 resolves it.
    var isNull: Bool {
        if case .scalar(let text, true, _) = self { return ["", "~", "null", "Null", "NULL"].contains(text) }
        return false
    }

    /// The YAML kind, for messages: `a mapping`, `a list`, `a scalar`.
    var kindName: String {
        switch self {
        case .scalar: "a scalar"
        case .sequence: "a list"
        case .mapping: "a mapping"
        }
    }
}

/// A key and its value in a mapping.
struct YAMLPair: Sendable, Hashable {
    var key: YAMLNode
    var value: YAMLNode
}

/// Reads YAML with Debian's libyaml: the first document of some bytes as ``YAMLNode``s,
/// bounded (nodes visited, depth), so that aliases cannot make it grow without end.
enum YAMLDocument {
    /// The most nodes visited, aliases counted each time they are reached.
    static let maximumNodes = 10_000
    /// The deepest nesting.
    static let maximumDepth = 64

    /// Why a document could not be read.
    struct Failure: Error, Sendable, Hashable {
        var message: String
    }

    /// The first document of `bytes`; nil for an empty document (no node).
    static func parse(_ bytes: [UInt8]) throws(Failure) -> YAMLNode? {
        guard loaded else {
            throw Failure(message: "libyaml is not installed (libyaml-0.so.2): apt-get install libyaml-0-2")
        }
        var problem = [CChar](repeating: 0, count: 512)
        let parsed = bytes.withUnsafeBufferPointer { input in
            problem.withUnsafeMutableBufferPointer {
                cast_yaml_parse(input.baseAddress, input.count, $0.baseAddress, $0.count)
            }
        }
        guard let document = parsed else {
            throw Failure(
                message: String(decoding: problem.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { cast_yaml_free(document) }
        let root = cast_yaml_root(document)
        guard root > 0 else { return nil }
        var budget = maximumNodes
        return try node(root, in: document, depth: 0, budget: &budget)
    }

    private static func node(
        _ index: Int32, in document: UnsafeMutablePointer<yaml_document_t>, depth: Int, budget: inout Int
    )
        throws(Failure) -> YAMLNode
    {
        budget -= 1
        guard budget >= 0 else {
            throw Failure(message: "more than \(maximumNodes) YAML nodes (aliases counted each time)")
        }
        guard depth <= maximumDepth else { throw Failure(message: "YAML nested more than \(maximumDepth) levels deep") }
        guard let node = cast_yaml_node(document, index) else { throw Failure(message: "a YAML node is missing") }
        let line = Int(clamping: cast_yaml_node_line(node))
        switch yaml_node_type_t(rawValue: UInt32(cast_yaml_node_type(node))) {
        case YAML_SCALAR_NODE:
            var length = 0
            guard let bytes = cast_yaml_scalar(node, &length) else { return .scalar("", plain: true, line: line) }
            let text = String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)
            return .scalar(text, plain: cast_yaml_scalar_is_plain(node), line: line)
        case YAML_SEQUENCE_NODE:
            var items: [YAMLNode] = []
            for position in 0..<cast_yaml_sequence_count(node) {
                items.append(
                    try self.node(
                        cast_yaml_sequence_item(node, position), in: document, depth: depth + 1, budget: &budget))
            }
            return .sequence(items, line: line)
        case YAML_MAPPING_NODE:
            var pairs: [YAMLPair] = []
            for position in 0..<cast_yaml_mapping_count(node) {
                let pair = cast_yaml_mapping_pair(node, position)
                let key = try self.node(pair.key, in: document, depth: depth + 1, budget: &budget)
                let value = try self.node(pair.value, in: document, depth: depth + 1, budget: &budget)
                pairs.append(YAMLPair(key: key, value: value))
            }
            return .mapping(pairs, line: line)
        default:
            throw Failure(message: "line \(line): an empty YAML node")
        }
    }

    /// Whether libyaml could be loaded; loads it the first time.
    private static let loaded: Bool = cast_yaml_load_library()
}
