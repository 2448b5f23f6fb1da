import OpenWidgetKit
import CWidgetPluginABI
import WidgetHostUV

/// What `widgethost --version` prints: the host's version, the SDK version and plugin ABI
/// version a plugin must be built with, and the libuv the binary runs against. Pure.
enum VersionInfo {
    /// The host is versioned with the SDK it ships (one package, one version).
    static let hostVersion = openWidgetKitVersion

    static var text: String {
        """
        widgethost \(hostVersion)
        OpenWidgetKit SDK \(openWidgetKitVersion) (plugins must be built with this SDK and toolchain)
        plugin ABI \(WIDGET_PLUGIN_ABI_VERSION) (widget_plugin_entry_v1)
        libuv \(UVVersion.string)
        """
    }
}
