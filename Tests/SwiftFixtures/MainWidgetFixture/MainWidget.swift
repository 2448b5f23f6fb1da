// `@main` on a single `Widget` (no bundle), the other form iOS widget extensions use.
import OpenWidgetKit

struct Entry: TimelineEntry {
    let date: Date
}

struct Provider: TimelineProvider {
    func placeholder(in context: Context) -> Entry { Entry(date: Date()) }
    func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) { completion(Entry(date: Date())) }
    func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
        completion(Timeline(entries: [Entry(date: Date())], policy: .never))
    }
}

@main
struct SingleWidget: Widget {
    static var widgetAppGroups: [String] { ["group.single"] }

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "single", provider: Provider()) { _ in
            Text("single")
        }
        .supportedFamilies([.systemSmall])
    }
}
