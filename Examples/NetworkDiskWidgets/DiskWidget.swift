import FoundationEssentials
import OpenWidgetKit

struct DiskConfigIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Disk"
    static var description = IntentDescription("Shows how full your volumes are.")

    /// Mount points separated by commas ("/, /home"); empty: the root (small) or every real
    /// volume (medium).
    @Parameter(title: "Mounts", default: "")
    var mounts: String
}

struct DiskEntry: TimelineEntry {
    let date: Date
    let volumes: [VolumeUsage]
}

/// `statvfs` of each volume (`MountTable`). Disk use changes slowly: a new timeline every 5
/// minutes.
struct DiskProvider: AppIntentTimelineProvider {
    static let refreshSeconds: Double = 300

    func placeholder(in context: Context) -> DiskEntry { .sample }

    func snapshot(for configuration: DiskConfigIntent, in context: Context) async -> DiskEntry {
        context.isPreview ? .sample : entry(for: configuration)
    }

    func timeline(for configuration: DiskConfigIntent, in context: Context) async -> Timeline<DiskEntry> {
        let e = entry(for: configuration)
        return Timeline(entries: [e], policy: .after(e.date.addingTimeInterval(Self.refreshSeconds)))
    }

    func entry(for configuration: DiskConfigIntent) -> DiskEntry {
        DiskEntry(date: Date(), volumes: Self.select(MountTable.read(), wanted: configuration.mounts).compactMap(MountTable.usage))
    }

    /// The mounts named in `wanted` (commas, spaces around ignored), in its order; all of them
    /// when it names none.
    static func select(_ mounts: [MountPoint], wanted: String) -> [MountPoint] {
        let names = wanted.split(separator: ",").map { $0.split(separator: " ").joined(separator: " ") }.filter { !$0.isEmpty }
        guard !names.isEmpty else { return mounts }
        return names.compactMap { name in mounts.first { $0.path == name } }
    }
}

extension DiskEntry {
    static let sample = DiskEntry(date: Date(timeIntervalSince1970: 1_795_080_600), volumes: [
        VolumeUsage(path: "/", total: 500_000_000_000, free: 123_000_000_000),
        VolumeUsage(path: "/home", total: 2_000_000_000_000, free: 1_460_000_000_000),
        VolumeUsage(path: "/boot/efi", total: 536_000_000, free: 470_000_000),
    ])
}

struct DiskView: View {
    @Environment(\.widgetFamily) var family
    let entry: DiskEntry

    private var main: VolumeUsage? { entry.volumes.first }
    private func percent(_ v: VolumeUsage) -> String { "\(Int((v.usedFraction * 100).rounded()))%" }
    private func name(_ v: VolumeUsage) -> String { v.path == "/" ? "System" : (v.path.split(separator: "/").last.map(String.init) ?? v.path) }
    private func tint(_ v: VolumeUsage) -> Color { v.usedFraction > 0.9 ? .red : v.usedFraction > 0.75 ? .orange : .blue }
    private func freeText(_ v: VolumeUsage) -> String { "\(ByteText.size(v.free)) free of \(ByteText.size(v.total))" }

    var body: some View {
        if let main {
            switch family {
            case .accessoryInline:
                Label("\(ByteText.size(main.free)) free", systemImage: "internaldrive")
            case .accessoryCircular:
                Gauge(value: main.usedFraction) {
                    Image(systemName: "internaldrive")
                } currentValueLabel: {
                    Text(percent(main))
                }
                .gaugeStyle(.accessoryCircularCapacity)
            case .accessoryRectangular:
                VStack(alignment: .leading, spacing: 2) {
                    Label(name(main), systemImage: "internaldrive").font(.headline)
                    Gauge(value: main.usedFraction) { EmptyView() }.gaugeStyle(.linearCapacity)
                    Text(freeText(main)).font(.caption2)
                }
            case .systemMedium:
                VStack(alignment: .leading, spacing: 6) {
                    Label("Storage", systemImage: "internaldrive").font(.caption.bold()).foregroundStyle(.blue)
                    ForEach(Array(entry.volumes.prefix(3).enumerated()), id: \.offset) { _, v in
                        VStack(alignment: .leading, spacing: 2) {
                            HStack {
                                Text(v.path).font(.subheadline.bold()).lineLimit(1)
                                Spacer(minLength: 4)
                                Text(freeText(v)).font(.caption).foregroundStyle(.secondary).lineLimit(1)
                            }
                            Gauge(value: v.usedFraction) { EmptyView() }.gaugeStyle(.linearCapacity).tint(tint(v))
                        }
                    }
                    Spacer(minLength: 0)
                }
            default:
                VStack(spacing: 6) {
                    Gauge(value: main.usedFraction) {
                        Image(systemName: "internaldrive")
                    } currentValueLabel: {
                        Text(percent(main))
                    }
                    .gaugeStyle(.accessoryCircularCapacity)
                    .tint(tint(main))
                    .scaleEffect(1.3)
                    .frame(maxHeight: .infinity)
                    VStack(spacing: 0) {
                        Text(ByteText.size(main.free)).font(.headline).monospacedDigit()
                        Text("free of \(ByteText.size(main.total))").font(.caption2).foregroundStyle(.secondary)
                    }
                }
            }
        } else {
            Label("No volume", systemImage: "internaldrive").foregroundStyle(.secondary)
        }
    }
}

struct DiskWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "disk", intent: DiskConfigIntent.self, provider: DiskProvider()) { entry in
            DiskView(entry: entry).containerBackground(.fill.tertiary, for: .widget)
        }
        .configurationDisplayName("Disk")
        .description("Free space on your volumes.")
        .supportedFamilies([.accessoryInline, .accessoryCircular, .accessoryRectangular, .systemSmall, .systemMedium])
    }
}
