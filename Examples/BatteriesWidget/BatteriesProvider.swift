import FoundationEssentials
import OpenWidgetKit

/// Reads the batteries once per reload and lays out what they will show every five minutes
/// along their present draw, so a draining battery's ring moves without a reload; a reload
/// every half hour reads them again (48 a day, within the default budget of 60). When nothing
/// charges or drains there is one entry, and the next read is also half an hour away.
/// Threading: the SDK calls it from its own task; it keeps no state.
struct BatteriesProvider: AppIntentTimelineProvider {
    typealias Entry = BatteriesEntry
    typealias Intent = BatteriesConfigurationIntent

    static let entryStep: TimeInterval = 5 * 60
    static let rereadAfter: TimeInterval = 30 * 60

    let source: any PowerSource

    init(source: any PowerSource = SysfsPowerSupply()) { self.source = source }

    func placeholder(in context: Context) -> BatteriesEntry { .sample(at: .now) }

    func snapshot(for configuration: BatteriesConfigurationIntent, in context: Context) async -> BatteriesEntry {
        let devices = read(configuration)
        // The gallery shows the sample where this machine has no battery at all.
        if devices.isEmpty && context.isPreview { return .sample(at: .now) }
        return BatteriesEntry(date: .now, devices: devices, showsTimeLeft: configuration.showsTimeLeft)
    }

    func timeline(for configuration: BatteriesConfigurationIntent, in context: Context) async -> Timeline<BatteriesEntry> {
        let now = Date.now
        let devices = read(configuration)
        let moving = devices.contains { ($0.state == .discharging || $0.state == .charging) && $0.timeLeft != nil }
        let steps = moving ? Int(Self.rereadAfter / Self.entryStep) : 1
        let entries = (0..<steps).map { i in
            let offset = TimeInterval(i) * Self.entryStep
            return BatteriesEntry(date: now.addingTimeInterval(offset), devices: BatteriesEntry.projected(devices, by: offset),
                                  showsTimeLeft: configuration.showsTimeLeft)
        }
        return Timeline(entries: entries, policy: .after(now.addingTimeInterval(Self.rereadAfter)))
    }

    private func read(_ configuration: BatteriesConfigurationIntent) -> [PowerDevice] {
        let all = source.devices()
        return configuration.devices == .laptop ? all.filter(\.isSystem) : all
    }
}
