import CastDiscovery
import Testing

@testable import CastDiscoveryAvahi

@Suite("Copy schedule") struct CopyScheduleTests {
    private let start = ContinuousClock.now

    private func copy(_ name: String, _ interface: Int32 = 2) -> ServiceCopyKey {
        ServiceCopyKey(
            service: ServiceKey(name: name, type: .googleCast, domain: "local"), interfaceIndex: interface,
            transport: .ipv4)
    }

    private func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    /// Deferrals made in this order: each copy's name and when (ms) it falls due.
    private func deferred(_ made: KeyValuePairs<String, Int>) -> CopySchedule {
        var deferrals = CopySchedule()
        for (name, due) in made { deferrals.add(copy(name), until: at(due)) }
        return deferrals
    }

    @Test("copies fall due in the order of their due times, each once")
    func dueInOrder() {
        var deferrals = deferred(["a": 10, "b": 20, "c": 30])
        #expect(deferrals.nextDue() == at(10))
        #expect(deferrals.takeDue(at: at(5)).isEmpty)
        #expect(deferrals.takeDue(at: at(20)) == [copy("a"), copy("b")])
        #expect(deferrals.nextDue() == at(30))
        #expect(deferrals.takeDue(at: at(20)).isEmpty)
        #expect(deferrals.takeDue(at: at(40)) == [copy("c")])
        #expect(deferrals.nextDue() == nil)
    }

    @Test("a removed copy never falls due, and the next due time skips it")
    func removed() {
        var deferrals = deferred(["a": 10, "b": 20])
        deferrals.remove(copy("a"))
        #expect(deferrals.nextDue() == at(20))
        #expect(deferrals.takeDue(at: at(30)) == [copy("b")])
    }

    @Test("a copy deferred again falls due at its new time only")
    func deferredAgain() {
        var deferrals = deferred(["a": 10, "b": 15, "a": 25])
        #expect(deferrals.takeDue(at: at(20)) == [copy("b")])
        #expect(deferrals.nextDue() == at(25))
        #expect(deferrals.takeDue(at: at(25)) == [copy("a")])
    }

    @Test("a deferral shorter than an earlier one still falls due first")
    func outOfOrder() {
        var deferrals = deferred(["a": 30, "b": 10])
        #expect(deferrals.nextDue() == at(10))
        #expect(deferrals.takeDue(at: at(10)) == [copy("b")])
    }

    @Test("taking them all gives every copy waiting, due or not, in due order, and leaves none")
    func takeAll() {
        var deferrals = deferred(["a": 30, "b": 10, "c": 20])
        deferrals.remove(copy("c"))
        #expect(deferrals.takeAll() == [copy("b"), copy("a")])
        #expect(deferrals.nextDue() == nil)
        #expect(deferrals.takeDue(at: at(100)).isEmpty)
    }

    @Test("a thousand copies, taken a few at a time, each exactly once")
    func many() {
        var deferrals = CopySchedule()
        let copies = (0..<1000).map { copy("device-\($0)", Int32($0 % 2)) }
        for (index, key) in copies.enumerated() { deferrals.add(key, until: at(index)) }
        var taken: [ServiceCopyKey] = []
        for step in stride(from: 0, through: 1000, by: 7) { taken += deferrals.takeDue(at: at(step)) }
        #expect(taken.count == 995)
        taken += deferrals.takeDue(at: at(1000))
        #expect(taken.count == copies.count)
        #expect(taken == copies)
        #expect(deferrals.nextDue() == nil)
    }
}
