import OpenWidgetKit
import WidgetPreviews

// A view with a dark branch, as iOS widgets write it: `preview --dark` and a daemon whose
// `picture.colorScheme` is "dark" must take it (issue 27).

struct AppearanceEntry: TimelineEntry {
    let date: Date
}

struct AppearanceProvider: TimelineProvider {
    func placeholder(in context: Context) -> AppearanceEntry { AppearanceEntry(date: Date()) }
    func getSnapshot(in context: Context, completion: @escaping (AppearanceEntry) -> Void) {
        completion(AppearanceEntry(date: Date()))
    }
    func getTimeline(in context: Context, completion: @escaping (Timeline<AppearanceEntry>) -> Void) {
        completion(Timeline(entries: [AppearanceEntry(date: Date())], policy: .never))
    }
}

struct AppearanceView: View {
    @Environment(\.colorScheme) var colorScheme

    var body: some View {
        if colorScheme == .dark {
            Text("dark")
        } else {
            Text("light")
        }
    }
}

struct AppearanceWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "AppearanceWidget", provider: AppearanceProvider()) { _ in
            AppearanceView()
        }
        .configurationDisplayName("Appearance")
        .supportedFamilies([.systemSmall, .accessoryInline])
    }
}

#Preview("Appearance alone") {
    AppearanceView()
}
