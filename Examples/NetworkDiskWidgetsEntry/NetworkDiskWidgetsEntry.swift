// Network and Disk (issue 29): throughput per interface from /proc/net/dev, and free space per
// volume with gauges, written with the SDK alone. docs/widgets/network-disk.md.
//
// The entry point alone, in a target of its own: the bundle's code is the `NetworkDisk` module,
// which its unit tests link (two bundles' `widget_plugin_entry_v1` in one test executable would
// not link).
import FoundationEssentials
import NetworkDisk
import OpenWidgetKit

/// The entry point. `network-counters`: the worker keeps the host's network namespace (its
/// `/proc/net/dev` lists the host's interfaces) with no socket; `mount-sizes`: the host's real
/// volumes are bound under /run/host/mounts for `statvfs` only (docs/limits.md "Sandbox");
/// NetworkManager on the system bus (the Wi-Fi network's name), and its manager's
/// `PropertiesChanged` (a connection activated or gone) reloads the widgets at once.
@_cdecl("widget_plugin_entry_v1") public func widgetPluginEntry() -> UnsafeRawPointer {
    WidgetPluginExport.entry(NetworkDiskWidgets.self, bundleId: "org.widgethost.netdisk", permissions: ["network-counters", "mount-sizes"],
                             systemBusNames: ["org.freedesktop.NetworkManager"],
                             busSignals: [BusSignal(sender: "org.freedesktop.NetworkManager", interface: "org.freedesktop.DBus.Properties",
                                                    member: "PropertiesChanged", path: "/org/freedesktop/NetworkManager", bus: "system")])
}
