import Foundation
import OpenWidgetKit

struct AppleStyleBundle: WidgetBundle {
    var body: some Widget {
        CityWidget()
    }
}

@_cdecl("widget_plugin_entry_v1") public func widgetPluginEntry() -> UnsafeRawPointer { WidgetPluginExport.entry(AppleStyleBundle.self) }
