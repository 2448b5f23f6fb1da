//
//  HydrationWidget.swift
//  Hydration
//

import WidgetKit
import SwiftUI

struct WaterEntry: TimelineEntry {
    let date: Date
    let glasses: Int
    let goal: Int
    let remindersOn: Bool

    var progress: Double { goal > 0 ? min(Double(glasses) / Double(goal), 1) : 0 }
}

struct Provider: TimelineProvider {
    func placeholder(in context: Context) -> WaterEntry {
        WaterEntry(date: Date(), glasses: 5, goal: 8, remindersOn: true)
    }

    func getSnapshot(in context: Context, completion: @escaping (WaterEntry) -> ()) {
        completion(currentEntry())
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<WaterEntry>) -> ()) {
        // Start again at midnight.
        let midnight = Calendar.current.startOfDay(for: Calendar.current.date(byAdding: .day, value: 1, to: Date())!)
        completion(Timeline(entries: [currentEntry()], policy: .after(midnight)))
    }

    private func currentEntry() -> WaterEntry {
        let store = WaterStore.shared
        return WaterEntry(date: Date(), glasses: store.glasses, goal: store.goal, remindersOn: store.remindersOn)
    }
}

struct WaterRing: View {
    var progress: Double
    var lineWidth: CGFloat
    @Environment(\.colorScheme) private var colorScheme

    private var water: Color { colorScheme == .dark ? .cyan : .blue }

    var body: some View {
        ZStack {
            Circle()
                .stroke(water.opacity(0.2), lineWidth: lineWidth)
            Circle()
                .trim(from: 0, to: progress)
                .stroke(water, style: StrokeStyle(lineWidth: lineWidth, lineCap: .round))
                .rotationEffect(.degrees(-90))
        }
    }
}

struct HydrationWidgetEntryView: View {
    var entry: Provider.Entry
    @Environment(\.widgetFamily) var family

    var body: some View {
        switch family {
        case .systemMedium:
            HStack(spacing: 16) {
                ring
                VStack(alignment: .leading, spacing: 8) {
                    Text("Hydration")
                        .font(.headline)
                    Text("\(entry.glasses * 250) ml of \(entry.goal * 250) ml")
                        .font(.subheadline)
                        .foregroundStyle(.secondary)
                    HStack(spacing: 8) {
                        Button(intent: LogGlassIntent(glasses: -1)) {
                            Image(systemName: "minus")
                        }
                        Button(intent: LogGlassIntent(glasses: 1)) {
                            Label("Glass", systemImage: "plus")
                        }
                        .buttonStyle(.borderedProminent)
                    }
                    Toggle(isOn: entry.remindersOn, intent: ToggleReminderIntent(isOn: !entry.remindersOn)) {
                        Text("Remind me hourly")
                            .font(.caption)
                    }
                }
                Spacer(minLength: 0)
            }
        default:
            VStack(spacing: 8) {
                ring
                Button(intent: LogGlassIntent(glasses: 1)) {
                    Label("Glass", systemImage: "plus")
                        .font(.caption.bold())
                }
                .buttonStyle(.bordered)
            }
        }
    }

    private var ring: some View {
        ZStack {
            WaterRing(progress: entry.progress, lineWidth: 10)
            VStack(spacing: 0) {
                Text("\(entry.glasses)")
                    .font(.title.bold())
                    .monospacedDigit()
                Text("of \(entry.goal)")
                    .font(.caption2)
                    .foregroundStyle(.secondary)
            }
        }
        .frame(width: 86, height: 86)
    }
}

struct HydrationWidget: Widget {
    let kind: String = "HydrationWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: Provider()) { entry in
            HydrationWidgetEntryView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Hydration")
        .description("Log a glass of water from the Home Screen.")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}

#Preview(as: .systemSmall) {
    HydrationWidget()
} timeline: {
    WaterEntry(date: .now, glasses: 2, goal: 8, remindersOn: false)
    WaterEntry(date: .now, glasses: 8, goal: 8, remindersOn: true)
}
