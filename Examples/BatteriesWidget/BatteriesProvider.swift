import FoundationEssentials
import OpenWidgetKit

/// Reads the batteries once per reload — from UPower when it answers, else from the kernel's
/// folders — and lays out what they will show every five minutes along their present draw, so a
/// draining battery's ring moves without a reload; while one moves a reload every half hour
/// reads them again (48 a day, within the default budget of 60). When nothing charges or drains
/// there is one entry; read from UPower, no reload is asked for then (its signals, declared in
/// the manifest, reload the widget when a device changes, comes or goes), from the kernel the
/// next read is half an hour away. Threading: the SDK calls it from its own task; no state.
struct BatteriesProvider: AppIntentTimelineProvider {
    typealias Entry = BatteriesEntry
    typealias Intent = BatteriesConfigurationIntent

    static let entryStep: TimeInterval = 5 * 60
    static let rereadAfter: TimeInterval = 30 * 60

    /// Asked in order; the first that answers is read.
    let sources: [any PowerSource]

    init(sources: [any PowerSource] = [UPowerSource(), SysfsPowerSupply()]) { self.sources = sources }

    func placeholder(in context: Context) -> BatteriesEntry { .sample(at: .now) }

    func snapshot(for configuration: BatteriesConfigurationIntent, in context: Context) async -> BatteriesEntry {
        let (devices, source) = read(configuration)
        // The gallery shows the sample where this machine has no battery at all.
        if devices.isEmpty && context.isPreview { return .sample(at: .now) }
        return BatteriesEntry(date: .now, devices: devices, showsTimeLeft: configuration.showsTimeLeft, source: source)
    }

    func timeline(for configuration: BatteriesConfigurationIntent, in context: Context) async -> Timeline<BatteriesEntry> {
        let now = Date.now
        let (devices, source) = read(configuration)
        let moving = devices.contains { ($0.state == .discharging || $0.state == .charging) && $0.timeLeft != nil }
        let steps = moving ? Int(Self.rereadAfter / Self.entryStep) : 1
        let entries = (0..<steps).map { i in
            let offset = TimeInterval(i) * Self.entryStep
            return BatteriesEntry(date: now.addingTimeInterval(offset), devices: BatteriesEntry.projected(devices, by: offset),
                                  showsTimeLeft: configuration.showsTimeLeft, source: source)
        }
        let signalled = source == UPowerSource().sourceName && !moving
        return Timeline(entries: entries, policy: signalled ? .never : .after(now.addingTimeInterval(Self.rereadAfter)))
    }

    /// The batteries of the first source that answers, and its name.
    private func read(_ configuration: BatteriesConfigurationIntent) -> (devices: [PowerDevice], source: String) {
        for source in sources {
            guard let all = source.devices() else { continue }
            return (configuration.devices == .laptop ? all.filter(\.isSystem) : all, source.sourceName)
        }
        return ([], "none")
    }
}
