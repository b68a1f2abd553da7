/// A check of JSON text against RFC 8259's grammar and a nesting limit, made before decoding it.
///
/// A decoder turns syntax errors and numbers it cannot hold into the same "not valid JSON"
/// error; checked first, a decoder's failure on valid text means a value it could not take (a
/// number out of range, a fraction where a whole number goes). The nesting limit stops a file of
/// nothing but brackets from costing a decoder memory and time out of proportion to its size.
package enum JSONSyntax {
    /// The deepest nesting the package's file formats need is a handful of levels; 64 leaves
    /// room and stops the pathological cases.
    package static let defaultDepthLimit = 64

    /// Why the text was refused, with the byte offset where it went wrong.
    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// An array or object starts more than `limit` levels deep.
        case tooDeep(offset: Int, limit: Int)
        /// The text is not JSON at `offset`: `expected` says what the grammar wants there.
        case invalid(offset: Int, expected: String)

        package var description: String {
            switch self {
            case .tooDeep(let offset, let limit): "nested more than \(limit) levels deep (at byte \(offset))"
            case .invalid(let offset, let expected): "expected \(expected) at byte \(offset)"
            }
        }

        /// What the grammar wanted, for an invalid text; empty for one nested too deeply.
        package var expected: String {
            if case .invalid(_, let expected) = self { expected } else { "" }
        }
    }

    /// Checks that `bytes` is one JSON value (with optional white space around it) in which no
    /// array or object lies more than `depthLimit` levels deep, in one pass without recursion.
    /// UTF-8 validity inside strings is left to the decoder.
    package static func check(_ bytes: some Collection<UInt8>, depthLimit: Int = defaultDepthLimit) throws(Failure) {
        let checked: Result<Void, Failure>? = bytes.withContiguousStorageIfAvailable { buffer in
            Result(catching: { () throws(Failure) in
                var checker = Checker(buffer, depthLimit: depthLimit)
                try checker.run()
            })
        }
        if let checked {
            try checked.get()
        } else {
            try Array(bytes).withUnsafeBufferPointer { buffer throws(Failure) in
                var checker = Checker(buffer, depthLimit: depthLimit)
                try checker.run()
            }
        }
    }

    /// The grammar as a loop over the bytes with a stack of open containers.
    private struct Checker {
        let bytes: UnsafeBufferPointer<UInt8>
        let depthLimit: Int
        var offset = 0
        /// For each open container, whether it is an object.
        var open: [Bool] = []

        init(_ bytes: UnsafeBufferPointer<UInt8>, depthLimit: Int) {
            self.bytes = bytes
            self.depthLimit = depthLimit
        }

        mutating func run() throws(Failure) {
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
            try value()
            while true {
                skipSpace()
                guard let isObject = open.last else { break }
                let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
                switch peek() {
                case UInt8(ascii: ","):
                    offset += 1
                    if isObject { try key() }
                    try value()
                case close:
                    offset += 1
                    open.removeLast()
                default:
                    throw invalid(isObject ? "',' or '}'" : "',' or ']'")
                }
            }
            guard offset == bytes.count else { throw invalid("the end of the text") }
        }

        /// One value; a container is opened and its first member read, the rest is `run`'s.
        mutating func value() throws(Failure) {
            skipSpace()
            guard let first = peek() else { throw invalid("a value") }
            switch first {
            case UInt8(ascii: "{"):
                try push(object: true)
                skipSpace()
                if peek() == UInt8(ascii: "}") {
                    offset += 1
                    open.removeLast()
                } else {
                    try key()
                    try value()
                }
            case UInt8(ascii: "["):
                try push(object: false)
                skipSpace()
                if peek() == UInt8(ascii: "]") {
                    offset += 1
                    open.removeLast()
                } else {
                    try value()
                }
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default: throw invalid("a value")
            }
        }

        mutating func push(object: Bool) throws(Failure) {
            guard open.count < depthLimit else { throw .tooDeep(offset: offset, limit: depthLimit) }
            open.append(object)
            offset += 1
        }

        /// A member name and its colon.
        mutating func key() throws(Failure) {
            skipSpace()
            guard peek() == UInt8(ascii: "\"") else { throw invalid("a member name") }
            try string()
            skipSpace()
            guard peek() == UInt8(ascii: ":") else { throw invalid("':'") }
            offset += 1
        }

        mutating func string() throws(Failure) {
            offset += 1
            while let byte = peek() {
                offset += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return
                case UInt8(ascii: "\\"):
                    guard let escaped = peek() else { throw invalid("an escape") }
                    offset += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        break
                    case UInt8(ascii: "u"):
                        for _ in 0..<4 {
                            guard let digit = peek(), digit.isHexDigit else { throw invalid("four hex digits") }
                            offset += 1
                        }
                    default:
                        offset -= 1
                        throw invalid("an escape")
                    }
                case 0..<0x20:
                    offset -= 1
                    throw invalid("'\\u' escape for a control character")
                default:
                    break
                }
            }
            throw invalid("'\"' closing the string")
        }

        mutating func number() throws(Failure) {
            if peek() == UInt8(ascii: "-") { offset += 1 }
            if peek() == UInt8(ascii: "0") {
                offset += 1
            } else {
                try digits()
            }
            if peek() == UInt8(ascii: ".") {
                offset += 1
                try digits()
            }
            if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
                offset += 1
                if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
                try digits()
            }
        }

        mutating func digits() throws(Failure) {
            guard let first = peek(), first.isDecimalDigit else { throw invalid("a digit") }
            while let byte = peek(), byte.isDecimalDigit { offset += 1 }
        }

        mutating func literal(_ word: StaticString) throws(Failure) {
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            for byte in expected {
                guard peek() == byte else { throw invalid("'\(word)'") }
                offset += 1
            }
        }

        mutating func skipSpace() {
            while let byte = peek(),
                byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
            {
                offset += 1
            }
        }

        func peek() -> UInt8? {
            offset < bytes.count ? bytes[offset] : nil
        }

        func invalid(_ expected: String) -> Failure {
            .invalid(offset: offset, expected: expected)
        }
    }
}

extension UInt8 {
    fileprivate var isDecimalDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }

    fileprivate var isHexDigit: Bool {
        isDecimalDigit || (self | 0x20 >= UInt8(ascii: "a") && self | 0x20 <= UInt8(ascii: "f"))
    }
}
