//
//  ErrandsWidget.swift
//  Errands
//

import WidgetKit
import SwiftUI

struct ErrandsEntry: TimelineEntry {
    let date: Date
    let tasks: [ErrandTask]

    var openCount: Int { tasks.filter { !$0.isDone }.count }
}

struct ErrandsProvider: TimelineProvider {
    func placeholder(in context: Context) -> ErrandsEntry {
        ErrandsEntry(date: Date(), tasks: Array(TaskStore.shared.sorted.prefix(3)))
    }

    func getSnapshot(in context: Context, completion: @escaping (ErrandsEntry) -> Void) {
        completion(ErrandsEntry(date: Date(), tasks: TaskStore.shared.sorted))
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<ErrandsEntry>) -> Void) {
        let entry = ErrandsEntry(date: Date(), tasks: TaskStore.shared.sorted)
        completion(Timeline(entries: [entry], policy: .after(Date().addingTimeInterval(15 * 60))))
    }
}

struct TaskRow: View {
    let task: ErrandTask
    let now: Date

    private var isOverdue: Bool {
        guard let due = task.due, !task.isDone else { return false }
        return due < now
    }

    var body: some View {
        HStack(spacing: 8) {
            Toggle(isOn: task.isDone, intent: CompleteTaskIntent(taskID: task.id)) {
                Image(systemName: task.isDone ? "checkmark.circle.fill" : "circle")
                    .foregroundStyle(task.isDone ? Color.accentColor : .secondary)
            }
            .toggleStyle(.button)
            .buttonStyle(.plain)

            VStack(alignment: .leading, spacing: 1) {
                Text(task.title)
                    .font(.subheadline)
                    .strikethrough(task.isDone)
                    .foregroundStyle(task.isDone ? .secondary : .primary)
                    .lineLimit(1)
                if let due = task.due {
                    Text(due, style: .time)
                        .font(.caption2)
                        .foregroundStyle(isOverdue ? .red : .secondary)
                }
            }
            Spacer(minLength: 4)
            if task.isFlagged {
                Image(systemName: "flag.fill")
                    .font(.caption)
                    .foregroundStyle(.orange)
            }
        }
    }
}

struct ErrandsWidgetEntryView: View {
    var entry: ErrandsProvider.Entry
    @Environment(\.widgetFamily) var family

    private var maxRows: Int { family == .systemLarge ? 7 : 3 }

    var body: some View {
        VStack(alignment: .leading, spacing: 6) {
            HStack {
                Text("Today")
                    .font(.headline)
                    .foregroundStyle(Color.accentColor)
                Spacer()
                Text("\(entry.openCount) open")
                    .font(.caption)
                    .foregroundStyle(.secondary)
            }
            ForEach(entry.tasks.prefix(maxRows)) { task in
                TaskRow(task: task, now: entry.date)
                if family == .systemLarge && task.id != entry.tasks.prefix(maxRows).last?.id {
                    Divider()
                }
            }
            Spacer(minLength: 0)
        }
    }
}

struct ErrandsWidget: Widget {
    let kind: String = "ErrandsWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: ErrandsProvider()) { entry in
            ErrandsWidgetEntryView(entry: entry)
                .containerBackground(.background, for: .widget)
        }
        .configurationDisplayName("Errands")
        .description("Tick off today's errands.")
        .supportedFamilies([.systemMedium, .systemLarge])
    }
}

#Preview(as: .systemMedium) {
    ErrandsWidget()
} timeline: {
    ErrandsEntry(date: .now, tasks: TaskStore.shared.sorted)
}
