import FoundationEssentials
import OpenWidgetKit

// 2. Provide timeline data to WidgetKit
struct HabitProvider: TimelineProvider {

    // Shown while the widget is loading (no data yet)
    func placeholder(in context: Context) -> HabitEntry {
        HabitEntry(
            date: .now,
            habitName: "Drink Water",
            completedCount: 5,
            goalCount: 8,
            streakDays: 12
        )
    }

    // Shown in the widget gallery preview
    func getSnapshot(
        in context: Context,
        completion: @escaping (HabitEntry) -> Void
    ) {
        let entry = HabitEntry(
            date: .now,
            habitName: "Drink Water",
            completedCount: 5,
            goalCount: 8,
            streakDays: 12
        )
        completion(entry)
    }

    // The real data — called periodically by WidgetKit
    func getTimeline(
        in context: Context,
        completion: @escaping (Timeline<HabitEntry>) -> Void
    ) {
        // Read the latest data from shared storage
        let defaults = SharedDefaults(suiteName: habitAppGroup)
        let name = defaults?.string(forKey: "habitName") ?? "Habit"
        let completed = defaults?.integer(forKey: "completedCount") ?? 0
        let goal = defaults?.object(forKey: "goalCount") == nil ? 8 : defaults?.integer(forKey: "goalCount") ?? 8
        let streak = defaults?.integer(forKey: "streakDays") ?? 0
        let done = defaults?.bool(forKey: "habitCompleted") ?? false

        let entry = HabitEntry(
            date: .now,
            habitName: name,
            completedCount: completed,
            goalCount: goal,
            streakDays: streak,
            isCompleted: done
        )

        // Refresh every 30 minutes
        let nextUpdate = Calendar.current.date(
            byAdding: .minute,
            value: 30,
            to: .now
        )!

        let timeline = Timeline(
            entries: [entry],
            policy: .after(nextUpdate)
        )
        completion(timeline)
    }
}
