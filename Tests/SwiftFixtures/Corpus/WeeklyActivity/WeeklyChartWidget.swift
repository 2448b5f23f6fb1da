//
//  WeeklyChartWidget.swift
//  WeeklyActivity
//
//  Seven bars drawn with shapes (no Swift Charts on the widget's deployment target), the goal as
//  a dashed line; a light and a dark palette.
//

import WidgetKit
import SwiftUI

struct ChartProvider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> ActivityEntry {
        ActivityEntry(date: Date(), week: ActivityHistory.week(endingOn: Date()))
    }

    func snapshot(for configuration: ChartConfigurationIntent, in context: Context) async -> ActivityEntry {
        ActivityEntry(date: Date(), week: ActivityHistory.week(endingOn: Date()), metric: configuration.metric)
    }

    func timeline(for configuration: ChartConfigurationIntent, in context: Context) async -> Timeline<ActivityEntry> {
        let entry = ActivityEntry(date: Date(), week: ActivityHistory.week(endingOn: Date()), metric: configuration.metric)
        return Timeline(entries: [entry], policy: .after(Date().addingTimeInterval(3600)))
    }
}

struct WeeklyBarChart: View {
    let week: [DayActivity]
    let metric: ActivityMetric
    var chartHeight: CGFloat = 80

    @Environment(\.colorScheme) private var colorScheme

    private var maxValue: Double {
        max(week.map { $0.value(metric) }.max() ?? 0, DayActivity.goal(metric))
    }

    private static let weekday: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEEEE"
        return formatter
    }()

    var body: some View {
        HStack(alignment: .bottom, spacing: 6) {
            ForEach(week) { day in
                VStack(spacing: 4) {
                    RoundedRectangle(cornerRadius: 3)
                        .fill(day.value(metric) >= DayActivity.goal(metric) ? metric.color : metric.color.opacity(colorScheme == .dark ? 0.45 : 0.35))
                        .frame(height: max(chartHeight * day.value(metric) / maxValue, 2))
                    Text(Self.weekday.string(from: day.date))
                        .font(.caption2)
                        .foregroundStyle(.secondary)
                }
            }
        }
        .frame(height: chartHeight + 16, alignment: .bottom)
        .overlay(alignment: .top) {
            Rectangle()
                .fill(colorScheme == .dark ? Color.white.opacity(0.5) : Color.black.opacity(0.3))
                .frame(height: 1)
                .offset(y: chartHeight * (1 - DayActivity.goal(metric) / maxValue))
        }
    }
}

struct WeeklyChartEntryView: View {
    var entry: ActivityEntry
    @Environment(\.colorScheme) private var colorScheme

    var body: some View {
        VStack(alignment: .leading, spacing: 8) {
            HStack(alignment: .firstTextBaseline) {
                Text(entry.metric.rawValue.capitalized)
                    .font(.headline)
                    .foregroundStyle(entry.metric.color)
                Text("last 7 days")
                    .font(.caption)
                    .foregroundStyle(.secondary)
                Spacer()
                Text("\(Int(entry.week.map { $0.value(entry.metric) }.reduce(0, +) / 7)) \(entry.metric.unit)/day")
                    .font(.caption.monospacedDigit())
            }
            WeeklyBarChart(week: entry.week, metric: entry.metric)
        }
    }
}

struct WeeklyChartWidget: Widget {
    let kind: String = "WeeklyChartWidget"

    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: kind, intent: ChartConfigurationIntent.self, provider: ChartProvider()) { entry in
            WeeklyChartEntryView(entry: entry)
                .containerBackground(for: .widget) {
                    ChartBackground()
                }
        }
        .configurationDisplayName("Weekly Chart")
        .description("A ring's last seven days.")
        .supportedFamilies([.systemMedium])
    }
}

/// White by day, a deep grey at night: the chart's own background, not the system one.
struct ChartBackground: View {
    @Environment(\.colorScheme) private var colorScheme

    var body: some View {
        if colorScheme == .dark {
            Color(red: 0.11, green: 0.11, blue: 0.12)
        } else {
            LinearGradient(colors: [.white, Color(white: 0.94)], startPoint: .top, endPoint: .bottom)
        }
    }
}

#Preview(as: .systemMedium) {
    WeeklyChartWidget()
} timeline: {
    ActivityEntry(date: .now, week: ActivityHistory.week(endingOn: .now), metric: .exercise)
}
