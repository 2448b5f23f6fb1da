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
        .description("The charge of the laptop, the mouse, the headphones: every battery UPower or the kernel reports.")
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge, .accessoryCircular, .accessoryRectangular, .accessoryInline])
    }
}

struct BatteriesBundle: WidgetBundle {
    var body: some Widget {
        BatteriesWidget()
    }
}

// The plugin's entry point. It talks to UPower on the system bus, and reloads when UPower says
// a device came, went or changed (and when UPower itself comes or goes: the host watches the
// owner of a declared name); /sys/class/power_supply, the fallback, is readable in every
// worker's sandbox (docs/limits.md).
@_cdecl("widget_plugin_entry_v1") public func widgetPluginEntry() -> UnsafeRawPointer {
    let upower = UPowerSource.name
    return WidgetPluginExport.entry(BatteriesBundle.self, bundleId: "org.widgethost.batteries", systemBusNames: [upower],
                                    busSignals: [BusSignal(sender: upower, interface: upower, member: "DeviceAdded", bus: "system"),
                                                 BusSignal(sender: upower, interface: upower, member: "DeviceRemoved", bus: "system"),
                                                 BusSignal(sender: upower, interface: "org.freedesktop.DBus.Properties",
                                                           member: "PropertiesChanged", bus: "system")])
}
