//
//  ActivityRingsWidget.swift
//  WeeklyActivity
//

import WidgetKit
import SwiftUI

struct ActivityEntry: TimelineEntry {
    let date: Date
    let week: [DayActivity]
    var metric: ActivityMetric = .move

    var today: DayActivity { week[week.count - 1] }
}

struct RingsProvider: TimelineProvider {
    func placeholder(in context: Context) -> ActivityEntry {
        ActivityEntry(date: Date(), week: ActivityHistory.week(endingOn: Date()))
    }

    func getSnapshot(in context: Context, completion: @escaping (ActivityEntry) -> ()) {
        completion(ActivityEntry(date: Date(), week: ActivityHistory.week(endingOn: Date())))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<ActivityEntry>) -> ()) {
        let entry = ActivityEntry(date: Date(), week: ActivityHistory.week(endingOn: Date()))
        completion(Timeline(entries: [entry], policy: .after(Date().addingTimeInterval(30 * 60))))
    }
}

/// One ring: a faint track and the day's share of the goal on top of it.
struct ProgressRing: View {
    let progress: Double
    let color: Color
    var lineWidth: CGFloat = 12

    var body: some View {
        ZStack {
            Circle()
                .stroke(color.opacity(0.25), lineWidth: lineWidth)
            Circle()
                .trim(from: 0, to: min(progress, 1))
                .stroke(color, style: StrokeStyle(lineWidth: lineWidth, lineCap: .round))
                .rotationEffect(.degrees(-90))
        }
    }
}

struct ActivityRingsView: View {
    let day: DayActivity
    var lineWidth: CGFloat = 12

    var body: some View {
        ZStack {
            ProgressRing(progress: day.move / DayActivity.moveGoal, color: ActivityMetric.move.color, lineWidth: lineWidth)
            ProgressRing(progress: day.exercise / DayActivity.exerciseGoal, color: ActivityMetric.exercise.color, lineWidth: lineWidth)
                .padding(lineWidth + 2)
            ProgressRing(progress: day.stand / DayActivity.standGoal, color: ActivityMetric.stand.color, lineWidth: lineWidth)
                .padding(2 * (lineWidth + 2))
        }
    }
}

struct ActivityRingsEntryView: View {
    var entry: ActivityEntry
    @Environment(\.widgetFamily) var family

    var body: some View {
        if family == .systemSmall {
            ActivityRingsView(day: entry.today)
                .padding(4)
        } else {
            HStack(spacing: 14) {
                ActivityRingsView(day: entry.today, lineWidth: 10)
                VStack(alignment: .leading, spacing: 6) {
                    ForEach([ActivityMetric.move, .exercise, .stand], id: \.self) { metric in
                        VStack(alignment: .leading, spacing: 0) {
                            Text(metric.rawValue.capitalized)
                                .font(.caption)
                                .foregroundStyle(.gray)
                            Text("\(Int(entry.today.value(metric)))/\(Int(DayActivity.goal(metric))) \(metric.unit)")
                                .font(.callout.weight(.semibold))
                                .foregroundStyle(metric.color)
                        }
                    }
                }
                Spacer(minLength: 0)
            }
        }
    }
}

struct ActivityRingsWidget: Widget {
    let kind: String = "ActivityRingsWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: RingsProvider()) { entry in
            ActivityRingsEntryView(entry: entry)
                .containerBackground(.black, for: .widget)
        }
        .configurationDisplayName("Activity Rings")
        .description("Move, exercise and stand today.")
        .supportedFamilies([.systemSmall, .systemMedium])
    }
}
