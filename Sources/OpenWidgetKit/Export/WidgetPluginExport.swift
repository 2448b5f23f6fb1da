import CWidgetPluginABI
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Turns a `WidgetBundle` (or a single `Widget`) into the plugin's C entry point.
///
/// The one line an author adds to a bundle (the analogue of `@main`):
///
///     @_cdecl("widget_plugin_entry_v1") public func widgetPluginEntry() -> UnsafeRawPointer { WidgetPluginExport.entry(MyWidgets.self) }
///
/// The first call builds the bundle and the `widget_plugin_v1` table, which then lives as long
/// as the process; later calls return the same table.
///
/// `appGroups` are the containers the widget may read and write (its entitlement);
/// `permissions: ["network"]` lets its sandboxed worker use TCP (docs/limits.md "Sandbox");
/// `filesystems: ["xdg-data/calendars:ro", "~/.calendars:ro"]` lets it read those paths (Flatpak's
/// `--filesystem=…:ro`; read-only only); `busNames: ["org.mpris.MediaPlayer2.*"]` lets it talk to
/// those names on the session bus, through a filtering proxy (`SessionBus`, docs/limits.md
/// "D-Bus"); `systemBusNames: ["org.freedesktop.UPower"]` the same on the system bus
/// (`SessionBus.system()`); `busSignals` are the signals of those names that reload its
/// timelines (`bus: "system"` for a system-bus one).
public enum WidgetPluginExport {
    public static func entry<B: WidgetBundle>(_ bundle: B.Type, bundleId: String? = nil, appGroups: [String] = [],
                                              permissions: [String] = [], filesystems: [String] = [],
                                              busNames: [String] = [], systemBusNames: [String] = [],
                                              busSignals: [BusSignal] = []) -> UnsafeRawPointer {
        install { PluginRuntime(bundleId: bundleId ?? String(reflecting: B.self), records: B().body.body._widgetRecords,
                                appGroups: appGroups, permissions: permissions, filesystems: filesystems,
                                busNames: busNames, systemBusNames: systemBusNames, busSignals: busSignals) }
    }

    public static func entry<W: Widget>(_ widget: W.Type, bundleId: String? = nil, appGroups: [String] = [],
                                        permissions: [String] = [], filesystems: [String] = [],
                                        busNames: [String] = [], systemBusNames: [String] = [],
                                        busSignals: [BusSignal] = []) -> UnsafeRawPointer {
        install { PluginRuntime(bundleId: bundleId ?? String(reflecting: W.self), records: W().body._widgetRecords,
                                appGroups: appGroups, permissions: permissions, filesystems: filesystems,
                                busNames: busNames, systemBusNames: systemBusNames, busSignals: busSignals) }
    }

    private static func install(_ make: () -> PluginRuntime) -> UnsafeRawPointer {
        if let table = PluginRuntime.table { return UnsafeRawPointer(table) }
        let runtime = make()
        PluginRuntime.current = runtime
        let table = UnsafeMutablePointer<widget_plugin_v1>.allocate(capacity: 1)
        table.initialize(to: widget_plugin_v1(
            abi_version: UInt32(WIDGET_PLUGIN_ABI_VERSION),
            struct_size: UInt32(MemoryLayout<widget_plugin_v1>.size),
            bundle_id: UnsafePointer(strdup(runtime.bundleId)),
            sdk_version: UnsafePointer(strdup(openWidgetKitVersion)),
            invoke: { request, length, response, responseLength in
                let input = request.map { Data(bytes: $0, count: length) } ?? Data()
                let output = PluginRuntime.current?.handle(input) ?? Data()
                let buffer = malloc(max(output.count, 1))!.assumingMemoryBound(to: UInt8.self)
                output.copyBytes(to: buffer, count: output.count)
                response?.pointee = buffer
                responseLength?.pointee = output.count
                return 0
            },
            free_buffer: { free($0) }
        ))
        PluginRuntime.table = table
        return UnsafeRawPointer(table)
    }
}
