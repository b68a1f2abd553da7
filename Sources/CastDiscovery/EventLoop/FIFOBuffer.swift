/// Elements in arrival order, taken from the front in constant time (amortized).
struct FIFOBuffer<Element: Sendable>: Sendable {
    private var elements: [Element] = []
    private var head = 0

    init() {}

    /// How many elements wait.
    var count: Int { elements.count - head }

    /// Whether none waits.
    var isEmpty: Bool { count == 0 }

    /// The waiting elements, front first.
    var all: ArraySlice<Element> { elements[head...] }

    /// Adds `element` at the back.
    mutating func append(_ element: Element) {
        elements.append(element)
    }

    /// Adds `more` at the back, in order.
    mutating func append(contentsOf more: some Sequence<Element>) {
        elements.append(contentsOf: more)
    }

    /// Takes the front element; nil when none waits.
    mutating func popFirst() -> Element? {
        guard head < elements.count else { return nil }
        let element = elements[head]
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: elements.capacity <= 1024)
            head = 0
        } else if head >= 1024, head * 2 >= elements.count {
            elements.removeFirst(head)
            head = 0
        }
        return element
    }

    /// The last element; nil when none waits.
    var last: Element? { isEmpty ? nil : elements.last }

    /// Removes the last element.
    @discardableResult
    mutating func removeLast() -> Element? {
        guard !isEmpty else { return nil }
        return elements.removeLast()
    }

    /// Removes every element.
    mutating func removeAll() {
        elements = []
        head = 0
    }

    /// Removes the first element that `matches` accepts, and returns it.
    mutating func removeFirst(where matches: (Element) -> Bool) -> Element? {
        guard let index = elements[head...].firstIndex(where: matches) else { return nil }
        return elements.remove(at: index)
    }
}
