import CastDiscovery
import Foundation
import Testing

@Suite("BackendStatistics: the counts as JSON")
struct BackendStatisticsTests {
    @Test(
        "every count is written, keys sorted; counts written before suppressedQueries, malformedRecords and coalescedEvents existed still read, as 0"
    )
    func coding() throws {
        var counts = BackendStatistics()
        counts.queriesSent = 3
        counts.suppressedQueries = 2
        counts.coalescedEvents = 4
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = try #require(String(data: try encoder.encode(counts), encoding: .utf8))
        #expect(
            json
                == #"{"coalescedEvents":4,"droppedRecords":0,"ignoredPackets":0,"malformedPackets":0,"malformedRecords":0,"offLinkPackets":0,"packetsReceived":0,"queriesSent":3,"suppressedQueries":2}"#
        )
        #expect(try JSONDecoder().decode(BackendStatistics.self, from: Data(json.utf8)) == counts)

        let older =
            #"{"droppedRecords":0,"ignoredPackets":1,"malformedPackets":0,"offLinkPackets":0,"packetsReceived":5,"queriesSent":3}"#
        let read = try JSONDecoder().decode(BackendStatistics.self, from: Data(older.utf8))
        #expect(
            read.suppressedQueries == 0 && read.malformedRecords == 0 && read.coalescedEvents == 0
                && read.packetsReceived == 5 && read.ignoredPackets == 1 && read.unansweredHosts == nil)
        // The other counts stay required.
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(BackendStatistics.self, from: Data(#"{"queriesSent":3}"#.utf8))
        }
    }
}
