import FoundationEssentials
import OpenWidgetKit

struct BatteriesWidget: Widget {
    let kind = "batteries"

    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: kind, intent: BatteriesConfigurationIntent.self, provider: BatteriesProvider()) { entry in
            BatteriesWidgetView(entry: entry)
                .containerBackground(.background, for: .widget)
        }
        .configurationDisplayName("Batteries")
        .description("The charge of the laptop, the mouse, the headphones: every battery the kernel reports.")
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge, .accessoryCircular, .accessoryRectangular, .accessoryInline])
    }
}

struct BatteriesBundle: WidgetBundle {
    var body: some Widget {
        BatteriesWidget()
    }
}

// The plugin's entry point. It declares nothing: /sys/class/power_supply is readable in every
// worker's sandbox (docs/limits.md).
@_cdecl("widget_plugin_entry_v1") public func widgetPluginEntry() -> UnsafeRawPointer {
    WidgetPluginExport.entry(BatteriesBundle.self, bundleId: "org.widgethost.batteries")
}
