// Port of "Exploring WidgetKit in iOS 14" (seed 003): Clocky, a clock with a timeline of 60
// entries one second apart and `.atEnd`. Changes from the article are in docs/porting.md.
//
// Clocky imports full Foundation (the only example that does) because
// `TimeZone(identifier: "Europe/Berlin")` needs the time-zone database that FoundationEssentials
// lacks; its worker therefore costs ~25 MB more than the others.
import Foundation
import OpenWidgetKit

struct ClockyWidget: Widget {
    // 1
    private let kind: String = "ClockyWidget"

    public var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: Provider()) { entry in
            ClockyWidgetEntryView(entry: entry)
        }
        // 2
        .configurationDisplayName("Clocky Widget")
        // 3
        .description("Displays the current time")
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge])
    }
}

// 4
struct ClockyEntry: TimelineEntry {
    public let date: Date
}

typealias ClockyProvider = Provider

// 5
struct Provider: TimelineProvider {
    // 6
    public typealias Entry = ClockyEntry
    // 7
    func getSnapshot(in context: Context, completion: @escaping (ClockyEntry) -> Void) {
        let entry = ClockyEntry(date: Date())
        completion(entry)
    }
    // 8
    func getTimeline(in context: Context, completion: @escaping (Timeline<ClockyEntry>) -> Void) {
        var entries: [ClockyEntry] = []
        // Generate a timeline consisting of 60 entries a second apart, starting from the current date.
        let currentDate = Date()
        for hourOffset in 0 ..< 60 {
            let entryDate = Calendar.current.date(byAdding: .second, value: hourOffset, to: currentDate)!
            let entry = ClockyEntry(date: entryDate)
            entries.append(entry)
        }
        // 9
        let timeline = Timeline(entries: entries, policy: .atEnd)
        completion(timeline)
    }
    // 10
    public func placeholder(in: Context) -> ClockyEntry {
        ClockyEntry(date: Date())
    }
}

// 11
struct ClockyWidgetEntryView: View {
    // 12
    var entry: ClockyProvider.Entry

    // 13
    @Environment(\.widgetFamily) var family: WidgetFamily
    // 14
    var body: some View {
        switch family {
        // 15
        case .systemSmall:
            ClockView(currentDate: entry.date,
                      minuteTickHeight: 8,
                      hourTickHeight: 16,
                      tickInset: 32,
                      font: Font.system(size: 12))

        // 16
        case .systemMedium:
            HStack {
                ClockView(currentDate: entry.date,
                          minuteTickHeight: 8,
                          hourTickHeight: 16,
                          tickInset: 32,
                          font: Font.system(size: 12),
                          label: "Local")
                ClockView(currentDate: entry.date.convertToTimeZone(initTimeZone: TimeZone.current,
                                                                    timeZone: TimeZone(identifier: "Europe/Berlin")!),
                          minuteTickHeight: 8,
                          hourTickHeight: 16,
                          tickInset: 32,
                          font: Font.system(size: 12),
                          label: "Berlin")
            }

        // 17
        case .systemLarge:
            ClockView(currentDate: entry.date,
                      minuteTickHeight: 12,
                      hourTickHeight: 24,
                      tickInset: 48,
                      font: Font.system(size: 24))
        default:
            ClockView(currentDate: entry.date,
                      minuteTickHeight: 8,
                      hourTickHeight: 16,
                      tickInset: 32,
                      font: Font.system(size: 12))
        }
    }
}

/// The clock face (from the article's earlier post, not shown in it): a dial whose ring sweeps
/// with the seconds, and the time in the middle.
struct ClockView: View {
    let currentDate: Date
    let minuteTickHeight: CGFloat
    let hourTickHeight: CGFloat
    let tickInset: CGFloat
    let font: Font
    var label: String? = nil

    private var components: DateComponents {
        Calendar.current.dateComponents([.hour, .minute, .second], from: currentDate)
    }

    var body: some View {
        let c = components
        let seconds = Double(c.second ?? 0)
        ZStack {
            Circle()
                .stroke(.secondary, lineWidth: minuteTickHeight / 4)
            Circle()
                .trim(from: 0, to: seconds / 60)
                .stroke(.red, style: StrokeStyle(lineWidth: hourTickHeight / 8, lineCap: .round))
                .rotationEffect(.degrees(-90))
            VStack(spacing: 0) {
                Text(String(format: "%02d:%02d", c.hour ?? 0, c.minute ?? 0))
                    .font(font.bold())
                    .monospacedDigit()
                Text(String(format: ":%02d", c.second ?? 0))
                    .font(font)
                    .monospacedDigit()
                    .foregroundStyle(.secondary)
                if let label {
                    Text(label)
                        .font(.caption2)
                        .foregroundStyle(.secondary)
                }
            }
        }
        .padding(tickInset / 4)
    }
}

extension Date {
    /// The date whose wall-clock reading in `initTimeZone` equals this date's in `timeZone`.
    func convertToTimeZone(initTimeZone: TimeZone, timeZone: TimeZone) -> Date {
        let delta = TimeInterval(timeZone.secondsFromGMT(for: self) - initTimeZone.secondsFromGMT(for: self))
        return addingTimeInterval(delta)
    }
}

// The plugin's entry point (replaces @main).
@_cdecl("widget_plugin_entry_v1") public func widgetPluginEntry() -> UnsafeRawPointer { WidgetPluginExport.entry(ClockyWidget.self, bundleId: "com.thirdrock.clocky") }
