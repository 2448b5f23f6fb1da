import Combine
import OpenWidgetKit
import WidgetPreviews

// Every view and modifier of issue 13, written as on iOS, in one widget; a Combine provider
// as CardioBot's article has it.

struct GalleryEntry: TimelineEntry {
    let date: Date
    let steps: Int
    let price: Double
}

final class GalleryProvider: TimelineProvider {
    var cancellable: AnyCancellable?

    private var entryPublisher: AnyPublisher<GalleryEntry, Never> {
        Just(GalleryEntry(date: Date(), steps: 10_432, price: 1_234.5)).eraseToAnyPublisher()
    }

    func placeholder(in context: Context) -> GalleryEntry {
        GalleryEntry(date: Date(), steps: 0, price: 0)
    }

    func getSnapshot(in context: Context, completion: @escaping (GalleryEntry) -> Void) {
        cancellable = entryPublisher
            .receive(on: DispatchQueue.main)
            .sink(receiveValue: completion)
    }

    func getTimeline(in context: Context, completion: @escaping (Timeline<GalleryEntry>) -> Void) {
        cancellable = entryPublisher
            .map { Timeline(entries: [$0], policy: .after($0.date.addingTimeInterval(900))) }
            .receive(on: DispatchQueue.main)
            .sink(receiveValue: completion)
    }
}

struct GalleryView: View {
    var entry: GalleryEntry
    @Environment(\.widgetFamily) var family
    let ringWidth: CGFloat = 6

    var body: some View {
        switch family {
        case .accessoryCircular:
            ZStack {
                AccessoryWidgetBackground()
                Gauge(value: Double(entry.steps), in: 0...12_000) {
                    Image(systemName: "figure.walk")
                }
                .gaugeStyle(.accessoryCircular)
            }
            .widgetLabel("Steps")
            .widgetAccentedRenderingMode(.accented)
        case .accessoryInline:
            ViewThatFits {
                Text("Steps today: \(entry.steps)")
                Text("\(entry.steps) steps")
            }
        case .accessoryRectangular:
            VStack(alignment: .leading) {
                Text("Next: ") + Text(entry.date.addingTimeInterval(3600), style: .relative).bold()
                Text(entry.price, format: .currency(code: "USD"))
                    .monospaced()
            }
        default:
            VStack(alignment: .leading, spacing: 4) {
                Text("Activity")
                    .font(.headline)
                    .fontDesign(.rounded)
                    .textCase(.uppercase)
                    .kerning(1)
                    .tracking(0.5)
                Grid(alignment: .leading) {
                    GridRow {
                        Text("Steps")
                        Text(entry.steps, format: .number)
                    }
                    GridRow {
                        Text("Spent")
                        Text(entry.price, format: .currency(code: "USD"))
                    }
                }
                LazyVGrid(columns: [GridItem(.flexible()), GridItem(.flexible())]) {
                    ForEach(["Mo", "Tu", "We", "Th"], id: \.self) { day in
                        Text(day).id(day)
                    }
                }
                LazyHGrid(rows: [GridItem(.fixed(16))]) {
                    Image(systemName: "heart.fill")
                        .symbolRenderingMode(.hierarchical)
                        .imageScale(.small)
                        .aspectRatio(contentMode: .fit)
                    Image(systemName: "flame")
                        .scaledToFit()
                        .accessibilityHidden(true)
                }
                Text(AttributedString("A long caption that has to be cut somewhere"))
                    .lineLimit(1)
                    .truncationMode(.middle)
                HStack {
                    Button(intent: RefreshIntent()) { Text("Refresh") }
                        .buttonStyle(.plain)
                    Toggle(isOn: true, intent: RefreshIntent()) { Text("Live") }
                        .toggleStyle(.button)
                }
                .animation(.easeInOut, value: entry.steps)
            }
            .background(.ultraThinMaterial)
        }
    }
}

struct GalleryWidget: Widget {
    let kind: String = "GalleryWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: GalleryProvider()) { entry in
            GalleryView(entry: entry)
                .containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Gallery")
        .description("Every view the port supports.")
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge, .accessoryCircular, .accessoryRectangular, .accessoryInline])
        .contentMarginsDisabled()
    }
}

#Preview("Gallery from its provider", as: .accessoryInline) {
    GalleryWidget()
} timelineProvider: {
    GalleryProvider()
}

#Preview("Grid alone") {
    Grid {
        GridRow {
            Text("a")
            Text("b")
        }
    }
}
