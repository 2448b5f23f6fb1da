//
//  MonthCalendarWidget.swift
//  MonthCalendar
//

import WidgetKit
import SwiftUI

struct MonthEntry: TimelineEntry {
    let date: Date
    let startsOnMonday: Bool
    /// Days of this month with something in the calendar.
    let busyDays: Set<Int>
}

struct Provider: AppIntentTimelineProvider {
    func placeholder(in context: Context) -> MonthEntry {
        MonthEntry(date: Date(), startsOnMonday: true, busyDays: [])
    }

    func snapshot(for configuration: CalendarConfigurationIntent, in context: Context) async -> MonthEntry {
        MonthEntry(date: Date(), startsOnMonday: configuration.startsOnMonday, busyDays: [3, 9, 12, 17, 18, 26])
    }

    func timeline(for configuration: CalendarConfigurationIntent, in context: Context) async -> Timeline<MonthEntry> {
        let entry = MonthEntry(date: Date(), startsOnMonday: configuration.startsOnMonday, busyDays: [3, 9, 12, 17, 18, 26])
        let tomorrow = Calendar.current.startOfDay(for: Calendar.current.date(byAdding: .day, value: 1, to: Date())!)
        return Timeline(entries: [entry], policy: .after(tomorrow))
    }
}

/// The cells of a month grid: `nil` for the blanks before the first day.
struct MonthLayout {
    let days: [Int?]
    let weekdaySymbols: [String]
    let today: Int

    init(date: Date, startsOnMonday: Bool) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        calendar.firstWeekday = startsOnMonday ? 2 : 1
        let range = calendar.range(of: .day, in: .month, for: date)!
        let first = calendar.date(from: calendar.dateComponents([.year, .month], from: date))!
        let leading = (calendar.component(.weekday, from: first) - calendar.firstWeekday + 7) % 7
        days = Array(repeating: nil, count: leading) + range.map { Optional($0) }
        let symbols = calendar.veryShortWeekdaySymbols
        weekdaySymbols = Array(symbols[(calendar.firstWeekday - 1)...] + symbols[..<(calendar.firstWeekday - 1)])
        today = calendar.component(.day, from: date)
    }
}

struct MonthCalendarEntryView: View {
    var entry: Provider.Entry
    @Environment(\.widgetFamily) var family

    private let columns = Array(repeating: GridItem(.flexible(), spacing: 2), count: 7)

    var body: some View {
        let month = MonthLayout(date: entry.date, startsOnMonday: entry.startsOnMonday)
        VStack(alignment: .leading, spacing: family == .systemLarge ? 10 : 4) {
            HStack {
                Text(entry.date, format: .dateTime.month(.wide))
                    .font(family == .systemLarge ? .title3.bold() : .caption.bold())
                    .foregroundStyle(.red)
                    .textCase(.uppercase)
                if family == .systemLarge {
                    Text(entry.date, format: .dateTime.year())
                        .font(.title3)
                        .foregroundStyle(.secondary)
                }
            }
            LazyVGrid(columns: columns, spacing: family == .systemLarge ? 10 : 3) {
                ForEach(Array(month.weekdaySymbols.enumerated()), id: \.offset) { _, symbol in
                    Text(symbol)
                        .font(.system(size: family == .systemLarge ? 13 : 9, weight: .semibold))
                        .foregroundStyle(.secondary)
                }
                ForEach(Array(month.days.enumerated()), id: \.offset) { _, day in
                    if let day {
                        DayCell(day: day, isToday: day == month.today, isBusy: entry.busyDays.contains(day), large: family == .systemLarge)
                    } else {
                        Color.clear.frame(height: 1)
                    }
                }
            }
            Spacer(minLength: 0)
        }
    }
}

struct DayCell: View {
    let day: Int
    let isToday: Bool
    let isBusy: Bool
    let large: Bool

    var body: some View {
        VStack(spacing: 1) {
            Text("\(day)")
                .font(.system(size: large ? 15 : 10, weight: isToday ? .bold : .regular))
                .foregroundStyle(isToday ? .white : .primary)
                .frame(width: large ? 28 : 15, height: large ? 28 : 15)
                .background {
                    if isToday {
                        Circle().fill(.red)
                    }
                }
            if large {
                Circle()
                    .fill(isBusy ? Color.secondary : .clear)
                    .frame(width: 4, height: 4)
            }
        }
    }
}

struct MonthCalendarWidget: Widget {
    let kind: String = "MonthCalendarWidget"

    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: kind, intent: CalendarConfigurationIntent.self, provider: Provider()) { entry in
            MonthCalendarEntryView(entry: entry)
                .containerBackground(.background, for: .widget)
        }
        .configurationDisplayName("Month")
        .description("This month, with today circled.")
        .supportedFamilies([.systemSmall, .systemLarge])
    }
}

#Preview(as: .systemLarge) {
    MonthCalendarWidget()
} timeline: {
    MonthEntry(date: .now, startsOnMonday: false, busyDays: [1, 2])
}
