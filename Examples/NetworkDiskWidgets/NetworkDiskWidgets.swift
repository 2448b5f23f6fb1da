// Network and Disk (issue 29): throughput per interface from /proc/net/dev, and free space per
// volume with gauges, written with the SDK alone. docs/widgets/network-disk.md.
import FoundationEssentials
import OpenWidgetKit

struct NetworkDiskWidgets: WidgetBundle {
    var body: some Widget {
        NetworkWidget()
        DiskWidget()
    }
}

/// The entry point. `network-counters`: the worker keeps the host's network namespace (its
/// `/proc/net/dev` lists the host's interfaces) with no socket; `mount-sizes`: the host's real
/// volumes are bound under /run/host/mounts for `statvfs` only (docs/limits.md "Sandbox").
@_cdecl("widget_plugin_entry_v1") public func widgetPluginEntry() -> UnsafeRawPointer {
    WidgetPluginExport.entry(NetworkDiskWidgets.self, bundleId: "org.widgethost.netdisk", permissions: ["network-counters", "mount-sizes"])
}
