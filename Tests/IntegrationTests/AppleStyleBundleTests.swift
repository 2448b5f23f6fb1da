import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
import WidgetRendering

/// The Apple-style fixture bundle (Tests/SwiftFixtures/AppleStyleWidget): iOS widget code with
/// nothing but its imports changed, built as Swift 5 code, through a real worker.
@Suite struct AppleStyleBundleTests {
    func worker(_ product: String = TestPaths.appleStyleProduct) throws -> BlockingWorkerClient {
        let so = TestPaths.plugin(product)
        try #require(FileManagerFree.exists(so), "\(so) is missing: run `swift build` before `swift test` (scripts/test.sh does)")
        return try BlockingWorkerClient(pluginPath: so, executable: TestPaths.widgethost,
                                        environment: try shiftedClockEnvironment(at: fixedTestInstant))
    }

    /// `static var title: LocalizedStringResource = "…"` and the `AppEnum`'s `static var`
    /// representations compile (Swift 5 mode) and reach the manifest.
    @Test func staticVarIntentsReachTheManifest() throws {
        let w = try worker()
        let manifest = try #require(try w.request(WireRequest(op: .describe)).manifest)
        let city = try #require(manifest.widgets.first { $0.kind == "CityWidget" })
        #expect(city.configuration == "AppIntentConfiguration")
        #expect(city.parameters.first?.name == "city")
        #expect(city.parameters.first?.options?.map(\.title) == ["Berlin", "Lisbon", "Tokyo"])
        let r = try w.request(WireRequest(op: .timeline, kind: "CityWidget", family: .systemSmall, configuration: ["city": .string("tokyo")]))
        var texts: [String] = []
        var titles: [String] = []
        r.entries?.first?.view.walk { node in
            if let t = node.text { texts.append(t) }
            if let t = node.action?.title { titles.append(t) }
        }
        #expect(texts.contains("Tokyo"))
        #expect(titles == ["Refresh"])
    }

    /// `@main struct AppleStyleBundle: WidgetBundle` with no entry line: the SDK's weak
    /// `widget_plugin_entry_v1` runs the plugin's `main`, which registers the bundle.
    @Test func mainOnABundleIsTheEntryPoint() throws {
        let manifest = try #require(try worker().request(WireRequest(op: .describe)).manifest)
        #expect(manifest.bundleId == "AppleStyleWidget.AppleStyleBundle")
        #expect(manifest.widgets.map(\.kind).contains("CityWidget"))
    }

    /// `@main` on a single `Widget`, with its app groups declared on the type.
    @Test func mainOnAWidgetIsTheEntryPoint() throws {
        let w = try worker(TestPaths.mainWidgetProduct)
        let manifest = try #require(try w.request(WireRequest(op: .describe)).manifest)
        #expect(manifest.bundleId == "MainWidgetFixture.SingleWidget")
        #expect(manifest.appGroups == ["group.single"])
        #expect(manifest.widgets.map(\.kind) == ["single"])
        let r = try w.request(WireRequest(op: .timeline, kind: "single", family: .systemSmall))
        #expect(r.entries?.first?.view.text == "single")
    }
}
