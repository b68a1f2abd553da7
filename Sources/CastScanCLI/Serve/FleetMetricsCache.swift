import CastDiscovery
import CastChannel
import CastScanServing
import Synchronization
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The `/metrics` body, its members' part rendered once per ``Fleet/revision`` (per generation
/// of the discovery manager's list, and per device forgotten) and format, not once per scrape,
/// and compressed once when a scraper asks for gzip.
///
/// Not in the revision, and so written at every scrape: the families of
/// ``FleetMetrics/processFamilies(_:)`` (whether discovery is up, the backend, the missed
/// events, the querier's and the report spool's counters, the build), those `extra` gives (the
/// server's own), and the last-seen family, whose value for a listed device is the scrape's time
/// (its series' names and labels are rendered with the rest). A scrape of an unchanged fleet
/// copies nothing of the members' part.
final class FleetMetricsCache: Sendable {
    /// One format's members' part, rendered.
    private struct Rendered: Sendable {
        /// Every member family but last-seen.
        var members: KeptText
        var lastSeenHeader: String
        /// Each last-seen series' name and labels, and its value when the device went (nil:
        /// the scrape's time).
        var lastSeen: [(series: String, value: String?)]
    }

    private struct Entry {
        var revision: Fleet.Revision
        var rendered: [ExpositionFormat: Rendered] = [:]
    }

    private let entry = LockedValue<Entry?>(nil)
    /// The channel's families (`serve --status`), rendered once per revision of the fleet and
    /// of the receivers' states, and format.
    private let channelEntry = LockedValue<(key: ChannelKey, text: KeptText)?>(nil)

    private struct ChannelKey: Hashable {
        var fleet: Fleet.Revision
        var states: Int
        var format: ExpositionFormat
    }
    /// How many times a members' part was rendered, for tests.
    private let renders = Atomic(0)

    init() {}

    /// How many times a members' part was rendered so far.
    var renderCount: Int { renders.load(ordering: .relaxed) }

    /// The body of a scrape of `monitor`'s fleet at `now` in `format`, with per-device series
    /// for at most `maxDevices` devices; with `channel` (`serve --status`), each listed
    /// device's Cast channel families too; then `extra`'s families.
    func body(
        of monitor: FleetMonitor, format: ExpositionFormat, at now: Date, maxDevices: Int,
        channel: ReceiverStates? = nil, extra: [MetricFamily] = []
    ) -> ResponseBody {
        let (revision, process) = monitor.update { ($0.revision, FleetMetrics.processFamilies($0)) }
        let rendered = cached(revision, format) ?? render(monitor.snapshot, format: format, maxDevices: maxDevices)
        let nowValue = MetricsExposition.number(FleetMetrics.seconds(now))
        var lastSeen = rendered.lastSeenHeader
        for (series, value) in rendered.lastSeen {
            lastSeen += series
            lastSeen += " "
            lastSeen += value ?? nowValue
            lastSeen += "\n"
        }
        var body = ResponseBody([.kept(rendered.members), .fresh(lastSeen)])
        if let channel {
            body.parts.append(.kept(channelPart(monitor, revision, channel, format: format, maxDevices: maxDevices)))
        }
        body.parts.append(
            .fresh(
                MetricsExposition.renderFamilies(process + extra, format: format)
                    + MetricsExposition.end(format: format)))
        return body
    }

    /// The channel's families, rendered again only when the fleet or the states changed: a
    /// scrape of unchanged ones reads two revisions and copies neither.
    private func channelPart(
        _ monitor: FleetMonitor, _ fleetRevision: Fleet.Revision, _ channel: ReceiverStates, format: ExpositionFormat,
        maxDevices: Int
    ) -> KeptText {
        let key = ChannelKey(fleet: fleetRevision, states: channel.revision, format: format)
        if let text = channelEntry.withLock({ $0?.key == key ? $0?.text : nil }) { return text }
        let fleet = monitor.snapshot
        let (revision, entries) = channel.snapshot()
        let text = KeptText(
            MetricsExposition.renderFamilies(
                ChannelMetrics.families(fleet, entries: entries, maxDevices: maxDevices), format: format))
        // Kept under the revisions of what was rendered (newer than the key's, if anything changed).
        channelEntry.withLock { $0 = (ChannelKey(fleet: fleet.revision, states: revision, format: format), text) }
        return text
    }

    private func cached(_ revision: Fleet.Revision, _ format: ExpositionFormat) -> Rendered? {
        entry.withLock { $0?.revision == revision ? $0?.rendered[format] : nil }
    }

    /// Renders `fleet`'s members' part and keeps it for the fleet's revision.
    private func render(_ fleet: Fleet, format: ExpositionFormat, maxDevices: Int) -> Rendered {
        renders.add(1, ordering: .relaxed)
        let members = FleetMetrics.memberSeries(fleet, maxDevices: maxDevices)
        let lastSeen = FleetMetrics.lastSeenFamily([])
        let rendered = Rendered(
            members: KeptText(MetricsExposition.renderFamilies(members.leading + members.trailing, format: format)),
            lastSeenHeader: MetricsExposition.header(lastSeen, format: format),
            lastSeen: members.lastSeen.map { series in
                (
                    MetricsExposition.series(lastSeen, series.labels),
                    series.goneAt.map { MetricsExposition.number(FleetMetrics.seconds($0)) }
                )
            })
        entry.withLock { entry in
            if entry?.revision != fleet.revision { entry = Entry(revision: fleet.revision) }
            entry?.rendered[format] = rendered
        }
        return rendered
    }
}
