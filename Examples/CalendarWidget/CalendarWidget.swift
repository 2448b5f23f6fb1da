import FoundationEssentials
import OpenWidgetKit

/// "Up Next", like Apple's Calendar widget: today's and the next events from the person's
/// `.ics` calendars (docs/widgets/calendar.md).
struct UpNextWidget: Widget {
    let kind: String = "UpNext"

    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: kind, intent: UpNextConfiguration.self, provider: UpNextProvider()) { entry in
            UpNextView(entry: entry)
                .containerBackground(.background, for: .widget)
        }
        .configurationDisplayName("Up Next")
        .description("See your next events from your calendars.")
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge, .accessoryRectangular, .accessoryInline, .accessoryCircular])
    }
}

struct CalendarWidgets: WidgetBundle {
    var body: some Widget {
        UpNextWidget()
    }
}

// The plugin's entry point: it reads the calendar folders khal and vdirsyncer use, read-only.
@_cdecl("widget_plugin_entry_v1") public func widgetPluginEntry() -> UnsafeRawPointer {
    WidgetPluginExport.entry(CalendarWidgets.self, bundleId: "org.widgethost.calendar", filesystems: CalendarPaths.declared)
}
