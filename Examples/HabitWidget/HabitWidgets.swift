import FoundationEssentials
import OpenWidgetKit

// 3. The widget declaration
struct MyAppWidget: Widget {
    let kind: String = "MyAppWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(
            kind: kind,
            provider: HabitProvider()
        ) { entry in
            HabitWidgetView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Habit Tracker")
        .description("Track your daily habit progress.")
        .supportedFamilies([
            .systemSmall,
            .systemMedium,
            .systemLarge,
            .accessoryCircular,
            .accessoryRectangular,
            .accessoryInline,
        ])
    }
}

/// The article's interactive widget (Button and Toggle with intents) as a widget of its own.
struct InteractiveHabitWidgetConfiguration: Widget {
    let kind: String = "InteractiveHabit"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: HabitProvider()) { entry in
            InteractiveHabitWidget(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Log Habit")
        .description("Log a completion without opening the app.")
        .supportedFamilies([.systemSmall])
    }
}

struct HabitWidgets: WidgetBundle {
    var body: some Widget {
        MyAppWidget()
        InteractiveHabitWidgetConfiguration()
    }
}

// The plugin's entry point (replaces @main).
@_cdecl("widget_plugin_entry_v1") public func widgetPluginEntry() -> UnsafeRawPointer { WidgetPluginExport.entry(HabitWidgets.self, bundleId: "com.yourapp.habit", appGroups: [habitAppGroup]) }
