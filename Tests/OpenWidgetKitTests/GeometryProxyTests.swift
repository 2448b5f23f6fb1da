import FoundationEssentials
import Testing
@testable import OpenWidgetKit

private struct GeoEntry: TimelineEntry { let date: Date }

private struct GeoProvider: TimelineProvider {
    func placeholder(in context: Context) -> GeoEntry { GeoEntry(date: Date(timeIntervalSince1970: 0)) }
    func getSnapshot(in context: Context, completion: @escaping @Sendable (GeoEntry) -> Void) { completion(placeholder(in: context)) }
    func getTimeline(in context: Context, completion: @escaping @Sendable (Timeline<GeoEntry>) -> Void) {
        completion(Timeline(entries: [placeholder(in: context)], policy: .never))
    }
}

private func sizeText(_ geo: GeometryProxy) -> Text {
    let g = geo.frame(in: .global)
    return Text("\(Int(geo.size.width))x\(Int(geo.size.height)) at \(Int(g.minX)),\(Int(g.minY))")
}

private struct GeoWidgets: WidgetBundle {
    var body: some Widget {
        Framed()
        EdgeToEdge()
    }
    struct Framed: Widget {
        var body: some WidgetConfiguration {
            StaticConfiguration(kind: "framed", provider: GeoProvider()) { _ in GeometryReader { sizeText($0) } }
        }
    }
    struct EdgeToEdge: Widget {
        var body: some WidgetConfiguration {
            StaticConfiguration(kind: "edge", provider: GeoProvider()) { _ in GeometryReader { sizeText($0) } }
                .contentMarginsDisabled()
        }
    }
}

/// A `GeometryReader` filling the widget is told the widget's content area for the requested
/// family and size: the display size less the margins in force, at the margins.
@Test func theProxyIsTheWidgetsContentAreaForTheRequest() async throws {
    func text(_ kind: String, _ family: WidgetFamily, _ size: DisplaySize? = nil) async throws -> String? {
        let r = try await onOwnThread {
            try PluginRuntime(bundleId: "t", records: GeoWidgets().body.body._widgetRecords, appGroups: [])
                .respond(to: WireRequest(op: .snapshot, kind: kind, family: family, displaySize: size))
        }
        var out: String?
        r.entries?.first?.view.walk { if let t = $0.text { out = t } }
        return out
    }
    #expect(try await text("framed", .systemMedium) == "306x126 at 16,16")
    #expect(try await text("edge", .systemMedium) == "338x158 at 0,0")
    #expect(try await text("framed", .systemSmall, DisplaySize(width: 170, height: 170)) == "138x138 at 16,16")
}

/// Padding and a fixed frame around a reader change what it is told: the padded area, the
/// frame's size centred where it is.
@Test func paddingAndAFixedFrameAroundAReaderAreItsArea() {
    var proxies: [CGRect] = []
    _ = ViewEvaluator.evaluate(VStack {
        GeometryReader { geo in let _ = proxies.append(geo.frame(in: .global)); Color.red }
            .padding(EdgeInsets(top: 4, leading: 10, bottom: 6, trailing: 2))
        GeometryReader { geo in let _ = proxies.append(geo.frame(in: .global)); Color.blue }
            .frame(width: 50, height: 20)
        GeometryReader { geo in let _ = proxies.append(geo.frame(in: .global)); Color.green }
            .frame(height: 30)
            .padding(8)
    }, environment: EnvironmentValues())
    // The default environment: a small widget, 158 × 158, content 126 × 126 at (16, 16).
    #expect(proxies == [CGRect(x: 26, y: 20, width: 114, height: 116),
                        CGRect(x: 54, y: 69, width: 50, height: 20),
                        CGRect(x: 24, y: 64, width: 110, height: 30)])
}
