import FoundationEssentials
import OpenWidgetKit

struct LogHabitIntent: AppIntent {
    static var title: LocalizedStringResource = "Log Habit"
    static var description = IntentDescription("Log a habit completion.")

    // This makes the intent available to widgets
    static var isDiscoverable: Bool { true }

    func perform() async throws -> some IntentResult {
        // Update shared data
        let defaults = SharedDefaults(
            suiteName: habitAppGroup
        )
        // One atomic read–modify–write, so a click and an app's write never lose each other.
        defaults?.update { values in
            let current = values["completedCount"]?.intValue ?? 0
            values["completedCount"] = .number(Double(current + 1))
        }

        // Refresh the widget immediately
        WidgetCenter.shared.reloadAllTimelines()

        return .result()
    }
}

// Toggle a boolean habit (e.g., "Did you meditate?")
struct ToggleHabitIntent: AppIntent {
    static var title: LocalizedStringResource = "Toggle Habit"

    @Parameter(title: "Completed")
    var isCompleted: Bool

    init() {}
    init(isCompleted: Bool) { self.isCompleted = isCompleted }

    func perform() async throws -> some IntentResult {
        let defaults = SharedDefaults(
            suiteName: habitAppGroup
        )
        defaults?.set(isCompleted, forKey: "habitCompleted")
        WidgetCenter.shared.reloadAllTimelines()
        return .result()
    }
}

// In your widget view
struct InteractiveHabitWidget: View {
    let entry: HabitEntry

    var body: some View {
        VStack(spacing: 12) {
            Text(entry.habitName)
                .font(.headline)

            Text("\(entry.completedCount)/\(entry.goalCount)")
                .font(.title.bold())

            // Interactive button — no app launch!
            Button(intent: LogHabitIntent()) {
                Label("Log", systemImage: "plus.circle.fill")
                    .font(.subheadline.bold())
            }
            .tint(.green)

            Toggle(isOn: entry.isCompleted,
                   intent: ToggleHabitIntent(isCompleted: !entry.isCompleted)) {
                Text("Done today")
                    .font(.headline)
            }
        }
        .padding()
    }
}
