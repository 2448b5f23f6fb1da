import FoundationEssentials
import OpenWidgetKit

struct SystemWidgets: WidgetBundle {
    var body: some Widget {
        ClockWidget()
        CPUWidget()
        MemoryWidget()
        LoadWidget()
        if ProcReader.batteryPath() != nil {
            BatteryWidget()
        }
    }
}

// The plugin's entry point.
@_cdecl("widget_plugin_entry_v1") public func widgetPluginEntry() -> UnsafeRawPointer { WidgetPluginExport.entry(SystemWidgets.self, bundleId: "org.widgethost.system") }
