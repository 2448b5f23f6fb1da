import FoundationEssentials
import OpenWidgetKit

struct LoadEntry: TimelineEntry {
    let date: Date
    let load: (Double, Double, Double)?
    let cores: Int
}

struct LoadProvider: TimelineProvider {
    func placeholder(in context: Context) -> LoadEntry { LoadEntry(date: .now, load: (0.5, 0.4, 0.3), cores: 4) }
    func getSnapshot(in context: Context, completion: @escaping (LoadEntry) -> Void) { completion(sample()) }
    func getTimeline(in context: Context, completion: @escaping (Timeline<LoadEntry>) -> Void) {
        completion(Timeline(entries: [sample()], policy: .after(.now.addingTimeInterval(10))))
    }
    private func sample() -> LoadEntry { LoadEntry(date: .now, load: ProcReader.loadAverage(), cores: ProcReader.cpuCount()) }
}

struct LoadView: View {
    @Environment(\.widgetFamily) var family
    let entry: LoadEntry

    private func f(_ x: Double) -> String { ProcReader.fixed(x, 2) }

    var body: some View {
        if let (one, five, fifteen) = entry.load {
            switch family {
            case .accessoryInline:
                Label("load \(f(one)) \(f(five)) \(f(fifteen))", systemImage: "gauge")
            default:
                VStack(alignment: .leading, spacing: 2) {
                    Label("Load", systemImage: "gauge").font(.caption).foregroundStyle(.secondary)
                    Text(f(one)).font(.title.bold()).foregroundStyle(one > Double(entry.cores) ? .red : .primary)
                    Text("\(f(five)) · \(f(fifteen))").font(.caption2).foregroundStyle(.secondary)
                }
            }
        } else {
            Text("load n/a")
        }
    }
}

struct LoadWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "load", provider: LoadProvider()) { LoadView(entry: $0) }
            .configurationDisplayName("Load")
            .description("Load average over 1, 5 and 15 minutes.")
            .supportedFamilies([.accessoryInline, .accessoryRectangular])
    }
}
