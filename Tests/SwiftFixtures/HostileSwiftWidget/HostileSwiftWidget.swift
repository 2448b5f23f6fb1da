// A hostile Swift plugin for the limits tests (HostileTests.swift): its view body misbehaves as
// the container value `mode` in app group "group.hostileswift" says — "fatal" calls fatalError,
// "loop" never returns — and otherwise shows "calm".
import FoundationEssentials
import OpenWidgetKit

struct ModeEntry: TimelineEntry {
    let date: Date
    let mode: String
}

struct ModeProvider: TimelineProvider {
    func placeholder(in context: Context) -> ModeEntry { ModeEntry(date: Date(), mode: "calm") }
    func getSnapshot(in context: Context, completion: @escaping (ModeEntry) -> Void) { completion(placeholder(in: context)) }
    func getTimeline(in context: Context, completion: @escaping (Timeline<ModeEntry>) -> Void) {
        let mode = SharedDefaults(suiteName: "group.hostileswift")?.string(forKey: "mode") ?? "calm"
        completion(Timeline(entries: [ModeEntry(date: Date(), mode: mode)], policy: .never))
    }
}

/// Never returns, opaquely enough that the optimizer keeps the loop.
@inline(never) func spin() -> Int {
    var n = 0
    while n >= 0 { n = (n &+ 1) & 0x7fff_ffff }
    return n
}

struct HostileView: View {
    let entry: ModeEntry
    var body: some View {
        switch entry.mode {
        case "fatal": fatalError("hostile view body")
        case "loop": Text("\(spin())")
        default: Text("calm")
        }
    }
}

struct HostileSwiftWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "hostileswift", provider: ModeProvider()) { entry in HostileView(entry: entry) }
            .supportedFamilies([.systemSmall])
    }
}

@_cdecl("widget_plugin_entry_v1") public func widgetPluginEntry() -> UnsafeRawPointer {
    WidgetPluginExport.entry(HostileSwiftWidget.self, bundleId: "org.example.hostileswift", appGroups: ["group.hostileswift"])
}
