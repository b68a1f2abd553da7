extension TXTRecord: ExpressibleByArrayLiteral {
    /// Creates a record from strings such as `"key=value"` or `"flag"`, encoded as UTF-8.
    public init(arrayLiteral elements: String...) {
        self.init(entries: elements.map(TXTEntry.init(_:)))
    }
}
