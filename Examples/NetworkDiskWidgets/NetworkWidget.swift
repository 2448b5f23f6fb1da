import FoundationEssentials
import OpenWidgetKit

/// A network interface to pick in the Edit Widget form; none picked: the default route's.
struct InterfaceEntity: AppEntity {
    let id: String
    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Interface"
    static var defaultQuery = InterfaceQuery()
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(id)") }
}

/// The interfaces the worker sees now (the host's, with `network-counters`).
struct InterfaceQuery: EntityQuery {
    func entities(for identifiers: [String]) async throws -> [InterfaceEntity] { identifiers.map(InterfaceEntity.init(id:)) }
    func suggestedEntities() async throws -> [InterfaceEntity] { NetworkCounters.read().map { InterfaceEntity(id: $0.name) } }
    /// No interface picked: the one the default route leaves by (as Apple's default, a query's
    /// first suggestion, would be `lo` here). nil without a default route (the provider then
    /// takes the first interface that is not `lo`).
    func defaultResult() async -> InterfaceEntity? { NetworkCounters.readDefaultRoute().map(InterfaceEntity.init(id:)) }
}

struct NetworkConfigIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Network"
    static var description = IntentDescription("Shows how fast an interface is receiving and sending.")

    @Parameter(title: "Interface")
    var interface: InterfaceEntity?
}

struct InterfaceRate: Equatable, Sendable {
    var name: String
    var kind: InterfaceKind
    var rate: Throughput?
    /// The Wi-Fi network it is on, when NetworkManager says (`NetworkManagerReader`).
    var link: WirelessLink? = nil
}

struct NetworkEntry: TimelineEntry {
    let date: Date
    /// The chosen interface first, then the others that carry traffic (systemMedium lists them).
    let interfaces: [InterfaceRate]
}

/// Rates between two reads of `/proc/net/dev` (`ThroughputMeter`: the previous reload's sample
/// while the worker lives, otherwise two reads half a second apart). A new timeline every 5 s,
/// the pace a bar's throughput needs. An interface NetworkManager says is on Wi-Fi gets its
/// network's name and strength from `links` (on the system bus), and is shown as Wi-Fi; no
/// NetworkManager: as before, the kind from `/sys/class/net`.
struct NetworkProvider: AppIntentTimelineProvider {
    static let refreshSeconds: Double = 5
    var links: any WirelessLinkSource = NetworkManagerReader.system

    func placeholder(in context: Context) -> NetworkEntry { .sample }

    func snapshot(for configuration: NetworkConfigIntent, in context: Context) async -> NetworkEntry {
        context.isPreview ? .sample : entry(for: configuration)
    }

    func timeline(for configuration: NetworkConfigIntent, in context: Context) async -> Timeline<NetworkEntry> {
        let e = entry(for: configuration)
        return Timeline(entries: [e], policy: .after(e.date.addingTimeInterval(Self.refreshSeconds)))
    }

    func entry(for configuration: NetworkConfigIntent) -> NetworkEntry {
        let (rates, counters) = ThroughputMeter.shared.measure()
        let chosen = configuration.interface?.id ?? NetworkCounters.readDefaultRoute()
            ?? counters.first { $0.name != "lo" }?.name ?? counters.first?.name ?? "lo"
        let others = counters.map(\.name).filter { $0 != chosen && $0 != "lo" && (rates[$0].map { $0.down + $0.up > 0 } ?? false) }
        let known = links.wirelessLinks()
        return NetworkEntry(date: Date(), interfaces: ([chosen] + others).map {
            InterfaceRate(name: $0, kind: known[$0] == nil ? NetworkCounters.kind(of: $0) : .wifi, rate: rates[$0], link: known[$0])
        })
    }
}

extension NetworkEntry {
    /// The gallery's and the placeholder's entry: fixed figures, like Apple's previews.
    static let sample = NetworkEntry(date: Date(timeIntervalSince1970: 1_795_080_600), interfaces: [
        InterfaceRate(name: "wlp2s0", kind: .wifi, rate: Throughput(down: 2_450_000, up: 182_000), link: WirelessLink(ssid: "Home Network", strength: 48)),
        InterfaceRate(name: "enp3s0", kind: .wired, rate: Throughput(down: 48_200, up: 9_600)),
    ])
}

struct NetworkView: View {
    @Environment(\.widgetFamily) var family
    let entry: NetworkEntry

    private var main: InterfaceRate { entry.interfaces.first ?? InterfaceRate(name: "—", kind: .other, rate: nil) }
    private func down(_ i: InterfaceRate) -> String { i.rate.map { ByteText.rate($0.down) } ?? "—" }
    private func up(_ i: InterfaceRate) -> String { i.rate.map { ByteText.rate($0.up) } ?? "—" }

    var body: some View {
        switch family {
        case .accessoryInline:
            Label("↓ \(down(main)) ↑ \(up(main))", systemImage: main.kind.symbol)
        case .accessoryRectangular:
            VStack(alignment: .leading, spacing: 1) {
                HStack(spacing: 4) { InterfaceGlyph(interface: main, size: 17); Text(main.link?.ssid ?? main.name).lineLimit(1) }.font(.headline)
                Label(down(main), systemImage: "arrow.down").monospacedDigit()
                Label(up(main), systemImage: "arrow.up").monospacedDigit()
            }
        case .systemMedium:
            VStack(alignment: .leading, spacing: 6) {
                Label("Network", systemImage: main.kind.symbol).font(.caption.bold()).foregroundStyle(.blue)
                ForEach(Array(entry.interfaces.prefix(3).enumerated()), id: \.offset) { _, i in
                    HStack(spacing: 8) {
                        InterfaceGlyph(interface: i, size: 18).foregroundStyle(.secondary).frame(width: 18)
                        VStack(alignment: .leading, spacing: 0) {
                            Text(i.link?.ssid ?? i.kind.title).font(.subheadline.bold()).lineLimit(1)
                            Text(i.link == nil ? i.name : i.kind.title + " · " + i.name).font(.caption2).foregroundStyle(.secondary)
                        }
                        Spacer(minLength: 4)
                        RateLine(symbol: "arrow.down", text: down(i), tint: .blue)
                        RateLine(symbol: "arrow.up", text: up(i), tint: .green)
                    }
                }
                Spacer(minLength: 0)
            }
        default:
            VStack(alignment: .leading, spacing: 4) {
                HStack(spacing: 4) { InterfaceGlyph(interface: main, size: 13); Text(main.kind.title) }.font(.caption.bold()).foregroundStyle(.blue)
                if let link = main.link {
                    Text(link.ssid).font(.subheadline.bold()).lineLimit(1)
                }
                Text(main.name).font(.caption2).foregroundStyle(.secondary)
                Spacer(minLength: 0)
                RateLine(symbol: "arrow.down", text: down(main), tint: .blue).font(.title3.bold())
                RateLine(symbol: "arrow.up", text: up(main), tint: .green).font(.title3.bold())
            }
            .frame(maxWidth: .infinity, alignment: .leading)
        }
    }
}

/// An interface's icon, `size` points wide: for Wi-Fi with a known strength, Apple's `wifi`
/// fan (its dot and three arcs) lit as far as the signal reaches, the rest dimmed — as the
/// `wifi` symbol with a variable value draws it; otherwise the kind's symbol.
struct InterfaceGlyph: View {
    let interface: InterfaceRate
    var size: Double

    var body: some View {
        if interface.kind == .wifi, let strength = interface.link?.strength {
            WiFiStrengthGlyph(bars: Self.bars(strength), size: size)
        } else {
            Image(systemName: interface.kind.symbol)
        }
    }

    /// Arcs lit above the dot, at the Wi-Fi bars of NetworkManager's applet (above 5, 30 and
    /// 55 %; it has a fourth above 80, Apple's fan has three arcs).
    static func bars(_ strength: Int) -> Int { strength > 55 ? 3 : strength > 30 ? 2 : strength > 5 ? 1 : 0 }
}

/// The Wi-Fi fan drawn with shapes: a dot and three concentric quarter arcs above it, the first
/// `bars` arcs in the foreground style and the others dimmed. `size` is its width in points.
struct WiFiStrengthGlyph: View {
    let bars: Int
    let size: Double

    private var radius: Double { size / 1.6 }
    private var line: Double { radius * 0.19 }

    private func arc(_ n: Int) -> some View {
        let r = radius * Double(n) / 3
        return Circle().trim(from: 0.625, to: 0.875).stroke(style: StrokeStyle(lineWidth: line, lineCap: .round))
            .frame(width: 2 * r, height: 2 * r)
            .opacity(n <= bars ? 1 : 0.3)
    }

    var body: some View {
        ZStack {
            // The symbol itself, unseen in a picture: the text outputs (a bar's line), which
            // draw no arcs, show its glyph there.
            Image(systemName: "wifi").opacity(0)
            arc(1)
            arc(2)
            arc(3)
            Circle().frame(width: line * 1.3, height: line * 1.3)
        }
        .frame(width: 2 * radius + line, height: 2 * radius + line)
        // The fan is the upper half of those circles, from the dot to the outer arc.
        .frame(width: size, height: radius + line, alignment: .top)
    }
}

/// An arrow and a rate, the arrow tinted.
struct RateLine: View {
    let symbol: String
    let text: String
    let tint: Color
    var body: some View {
        HStack(spacing: 3) {
            Image(systemName: symbol).foregroundStyle(tint)
            Text(text).monospacedDigit().lineLimit(1).minimumScaleFactor(0.6)
        }
    }
}

struct NetworkWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "network", intent: NetworkConfigIntent.self, provider: NetworkProvider()) { entry in
            NetworkView(entry: entry).containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Network")
        .description("Download and upload speed of an interface.")
        .supportedFamilies([.accessoryInline, .accessoryRectangular, .systemSmall, .systemMedium])
    }
}
