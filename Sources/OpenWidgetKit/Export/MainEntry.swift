import CWidgetMainEntry
import CWidgetPluginABI
import FoundationEssentials

/// `@main` on a `WidgetBundle` or a `Widget`, as in an iOS widget extension.
///
/// `@main struct MyBundle: WidgetBundle` makes the compiler emit a C `main` in the plugin's
/// `.so` that calls `MyBundle.main()`. This `main()` registers the type; it builds nothing.
/// The SDK's weak `widget_plugin_entry_v1` (target `CWidgetMainEntry`) calls the plugin's
/// `main` once when the worker asks for the entry point, then returns the table of the
/// registered type. A plugin that writes the explicit `@_cdecl("widget_plugin_entry_v1")`
/// line overrides the weak symbol and never goes through here.
///
/// The bundle identifier is the type's qualified name (`Module.MyBundle`) unless the type
/// declares `static var widgetBundleIdentifier`; the app groups (the App Groups entitlement
/// on iOS) come from `static var widgetAppGroups`.
///
/// Threading: the worker asks for the entry point once, from one thread, before any request.
extension WidgetBundle {
    public static func main() {
        MainEntryRegistry.register { WidgetPluginExport.entry(Self.self, bundleId: widgetBundleIdentifier, appGroups: widgetAppGroups) }
    }
    /// The bundle identifier the manifest reports; nil = the type's qualified name.
    public static var widgetBundleIdentifier: String? { nil }
    /// The app groups whose containers the host creates and watches for this bundle.
    public static var widgetAppGroups: [String] { [] }
}

extension Widget {
    public static func main() {
        MainEntryRegistry.register { WidgetPluginExport.entry(Self.self, bundleId: widgetBundleIdentifier, appGroups: widgetAppGroups) }
    }
    /// The bundle identifier the manifest reports; nil = the type's qualified name.
    public static var widgetBundleIdentifier: String? { nil }
    /// The app groups whose containers the host creates and watches for this bundle.
    public static var widgetAppGroups: [String] { [] }
}

/// The type a `@main` registered. Written once by `main()`, read by the entry point right
/// after, on the same thread.
enum MainEntryRegistry {
    nonisolated(unsafe) static var makeTable: (() -> UnsafeRawPointer)?
    static func register(_ make: @escaping () -> UnsafeRawPointer) { makeTable = make }
}

/// Called by the weak entry point after it ran the plugin's `main`: the registered type's
/// table, built on first call; NULL when nothing registered.
@_cdecl("owk_registered_plugin_table")
public func registeredPluginTable() -> UnsafeRawPointer? {
    MainEntryRegistry.makeTable?()
}
