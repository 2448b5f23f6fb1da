import FoundationEssentials
import Testing
@testable import OpenWidgetKit

// A provider that records the context it was given into its entries.
private struct ContextEntry: TimelineEntry {
    let date: Date
    let family: WidgetFamily
    let isPreview: Bool
    let label: String
    var relevance: TimelineEntryRelevance? { TimelineEntryRelevance(score: 7, duration: 30) }
}

private struct RecordingProvider: TimelineProvider {
    let start = Date(timeIntervalSince1970: 1_800_000_000)
    func placeholder(in context: Context) -> ContextEntry {
        ContextEntry(date: start, family: context.family, isPreview: context.isPreview, label: "placeholder")
    }
    func getSnapshot(in context: Context, completion: @escaping (ContextEntry) -> Void) {
        completion(ContextEntry(date: start, family: context.family, isPreview: context.isPreview, label: "snapshot"))
    }
    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<ContextEntry>) -> Void) {
        let entries = (0..<3).map { ContextEntry(date: start.addingTimeInterval(Double($0) * 60), family: context.family,
                                                  isPreview: context.isPreview, label: "entry \($0)") }
        // Deliver from another thread, twice: the second delivery must be ignored.
        Task.detached {
            completion(Timeline(entries: entries, policy: .after(start.addingTimeInterval(3600))))
            completion(Timeline(entries: [], policy: .never))
        }
    }
}

private struct RecordingView: View {
    let entry: ContextEntry
    @Environment(\.widgetFamily) var family
    var body: some View {
        VStack {
            Text(entry.label)
            Text("\(family.rawValue) \(entry.isPreview ? "preview" : "live")")
        }
    }
}

private struct RecordingWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "recording", provider: RecordingProvider()) { RecordingView(entry: $0) }
            .configurationDisplayName("Recording")
            .description("Records its context.")
            .supportedFamilies([.systemSmall, .accessoryInline])
    }
}

private struct DefaultFamiliesWidget: Widget {
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "plain", provider: RecordingProvider()) { RecordingView(entry: $0) }
    }
}

private struct TwoWidgets: WidgetBundle {
    static let includeSecond = false
    var body: some Widget {
        RecordingWidget()
        if Self.includeSecond {
            DefaultFamiliesWidget()
        }
        DefaultFamiliesWidget()
    }
}

private func runtime<W: Widget>(_ w: W.Type) -> PluginRuntime {
    PluginRuntime(bundleId: "test", records: W().body._widgetRecords, appGroups: ["group.test"])
}


/// Answers `request` as a worker would: on a thread of its own.
private func respond<W: Widget>(_ w: W.Type, _ request: WireRequest) async throws -> WireResponse {
    let rt = runtime(W.self)
    return try await onOwnThread { try rt.respond(to: request) }
}

@Suite struct TimelineRuntimeTests {
    @Test func policiesEncodeAsWidgetKitDefinesThem() {
        let d = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(TimelineReloadPolicy.atEnd.wire == WirePolicy(type: "atEnd"))
        #expect(TimelineReloadPolicy.never.wire == WirePolicy(type: "never"))
        #expect(TimelineReloadPolicy.after(d).wire == WirePolicy(type: "after", date: d))
    }

    @Test func familiesHaveNominalSizesAndGrids() {
        #expect(WidgetFamily.systemSmall.nominalSize == DisplaySize(width: 158, height: 158))
        #expect(WidgetFamily.systemMedium.nominalSize == DisplaySize(width: 338, height: 158))
        #expect(WidgetFamily.systemLarge.cellGrid.columns == 42)
        #expect(WidgetFamily.systemLarge.cellGrid.rows == 22)
        #expect(WidgetFamily.accessoryInline.cellGrid.rows == 1)
        #expect(WidgetFamily.allCases.filter(\.isAccessory).count == 3)
    }

    @Test func configurationModifiersReachTheManifest() throws {
        let manifest = runtime(RecordingWidget.self).manifest
        let w = try #require(manifest.widgets.first)
        #expect(w.kind == "recording")
        #expect(w.displayName == "Recording")
        #expect(w.description == "Records its context.")
        #expect(w.families == [.systemSmall, .accessoryInline])
        #expect(w.configuration == "StaticConfiguration")
        #expect(manifest.appGroups == ["group.test"])
        #expect(manifest.sdkVersion == openWidgetKitVersion)
        // Without supportedFamilies, WidgetKit's default: the system families.
        #expect(runtime(DefaultFamiliesWidget.self).manifest.widgets.first?.families == [.systemSmall, .systemMedium, .systemLarge])
    }

    @Test func bundleBuilderHonoursConditions() {
        let records = TwoWidgets().body.body._widgetRecords
        #expect(records.map(\.kind) == ["recording", "plain"])
    }

    @Test func timelineCarriesEntriesPolicyContextAndRelevance() async throws {
        let r = try await respond(RecordingWidget.self, WireRequest(op: .timeline, kind: "recording", family: .accessoryInline))
        let entries = try #require(r.entries)
        #expect(entries.count == 3)
        #expect(entries.map(\.date.timeIntervalSince1970) == [1_800_000_000, 1_800_000_060, 1_800_000_120])
        #expect(texts(entries[1].view) == ["entry 1", "accessoryInline live"])
        #expect(entries[0].relevance == WireRelevance(score: 7, duration: 30))
        #expect(r.policy == WirePolicy(type: "after", date: Date(timeIntervalSince1970: 1_800_003_600)))
    }

    @Test func snapshotSeesPreviewFlag() async throws {
        let r = try await respond(RecordingWidget.self, WireRequest(op: .snapshot, kind: "recording", family: .systemSmall, isPreview: true))
        #expect(texts(try #require(r.entries?.first).view) == ["snapshot", "systemSmall preview"])
    }

    @Test func placeholderIsRedacted() async throws {
        let r = try await respond(RecordingWidget.self, WireRequest(op: .placeholder, kind: "recording", family: .systemSmall))
        let root = try #require(r.entries?.first?.view)
        #expect(root.modifiers?.redacted == true)
        #expect(texts(root).first == "placeholder")
    }

    @Test func unsupportedFamilyAndUnknownKindAreClearErrors() {
        let rt = runtime(RecordingWidget.self)
        let bad = rt.handle(try! WireCodec.encode(WireRequest(op: .timeline, kind: "recording", family: .systemLarge)))
        let response = try? WireCodec.decode(WireResponse.self, from: bad)
        #expect(response?.ok == false)
        #expect(response?.error?.contains("does not support systemLarge") == true)
        let unknown = try? WireCodec.decode(WireResponse.self, from: rt.handle(try! WireCodec.encode(WireRequest(op: .timeline, kind: "nope"))))
        #expect(unknown?.error?.contains("no widget of kind \"nope\"") == true)
        let garbage = try? WireCodec.decode(WireResponse.self, from: rt.handle(Data("{not json".utf8)))
        #expect(garbage?.ok == false)
        #expect(garbage?.error?.hasPrefix("malformed request") == true)
    }

    @Test func treeRoundTripsThroughTheWireCodec() async throws {
        let r = try await respond(RecordingWidget.self, WireRequest(op: .timeline, kind: "recording", family: .systemSmall))
        let data = try WireCodec.encode(r)
        #expect(try WireCodec.decode(WireResponse.self, from: data) == r)
        // Sorted keys: the encoding is canonical.
        #expect(try WireCodec.encode(try WireCodec.decode(WireResponse.self, from: data)) == data)
    }
}
