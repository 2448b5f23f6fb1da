import FoundationEssentials
import OpenWidgetKit

struct NowPlayingWidget: Widget {
    let kind = "nowplaying"

    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: kind, intent: NowPlayingConfigurationIntent.self, provider: NowPlayingProvider()) { entry in
            NowPlayingView(entry: entry)
                .containerBackground(.background, for: .widget)
        }
        .configurationDisplayName("Now Playing")
        .description("What a music or video player is playing, with Previous, Play/Pause and Next.")
        .supportedFamilies([.systemSmall, .systemMedium, .accessoryCircular, .accessoryRectangular, .accessoryInline])
    }
}

struct NowPlayingBundle: WidgetBundle {
    var body: some Widget {
        NowPlayingWidget()
    }
}

/// What reloads the widget: a player's properties changing (track, status, rate), its seeking,
/// and (declared by the names themselves) a player appearing or leaving the bus.
let nowPlayingSignals = [
    BusSignal(sender: "org.mpris.MediaPlayer2.*", interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
              path: "/org/mpris/MediaPlayer2"),
    BusSignal(sender: "org.mpris.MediaPlayer2.*", interface: "org.mpris.MediaPlayer2.Player", member: "Seeked",
              path: "/org/mpris/MediaPlayer2"),
]

// The plugin's entry point: it talks to the MPRIS players and nothing else on the session bus
// (docs/limits.md "D-Bus"), and reads no file.
@_cdecl("widget_plugin_entry_v1") public func widgetPluginEntry() -> UnsafeRawPointer {
    WidgetPluginExport.entry(NowPlayingBundle.self, bundleId: "org.widgethost.nowplaying",
                             busNames: ["org.mpris.MediaPlayer2.*"], busSignals: nowPlayingSignals)
}
