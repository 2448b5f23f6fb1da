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
        return try BlockingWorkerClient(pluginPath: so, executable: TestPaths.worker,
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

    /// Every widget of the Apple-style bundle renders in every family it declares, and the
    /// gallery's views show what they mean.
    @Test func everyWidgetRendersInEveryFamily() throws {
        let w = try worker()
        let manifest = try #require(try w.request(WireRequest(op: .describe)).manifest)
        #expect(manifest.widgets.map(\.kind) == ["CityWidget", "GalleryWidget", "AppearanceWidget"])
        var shown: [WidgetFamily: String] = [:]
        for widget in manifest.widgets {
            for family in widget.families {
                let r = try w.request(WireRequest(op: .timeline, kind: widget.kind, family: family))
                #expect(r.ok, "\(widget.kind) \(family): \(r.error ?? "")")
                let entry = try #require(r.entries?.first)
                let text = TextRenderer.render(entry.view, family: family, options: RenderOptions(now: entry.date))
                let blank = text.allSatisfy { $0.isWhitespace }
                #expect(!blank, "\(widget.kind) \(family) renders nothing")
                if widget.kind == "GalleryWidget" {
                    shown[family] = text
                    // `.contentMarginsDisabled()` reaches the tree.
                    #expect(entry.view.modifiers?.contentMargins == EdgeInsetsSpec(top: 0, leading: 0, bottom: 0, trailing: 0))
                }
            }
        }
        #expect(shown[.accessoryInline] == "Steps today: 10432")
        #expect(shown[.accessoryCircular]?.hasSuffix("\nSteps") == true)
        #expect(shown[.accessoryRectangular] == "Next: 1 hr\n$1,234.50")
        let large = try #require(shown[.systemLarge])
        for expected in ["ACTIVITY", "10,432", "$1,234.50", "Mo", "Th", "Refresh", "[✓ Live]", "A long", "…"] {
            #expect(large.contains(expected), "systemLarge lacks \(expected):\n\(large)")
        }
        #expect(!large.contains("[Refresh]"), "a plain button has no brackets")
    }

    /// A worker formats numbers in the locale it inherits (`LC_ALL`/`LC_NUMERIC`/`LANG`).
    @Test func workerNumbersFollowTheLocale() throws {
        func amount(_ locale: String) throws -> [String] {
            var env = try shiftedClockEnvironment(at: fixedTestInstant)
            env["LC_ALL"] = locale
            let w = try BlockingWorkerClient(pluginPath: TestPaths.plugin(TestPaths.appleStyleProduct), executable: TestPaths.worker,
                                             environment: env)
            let r = try w.request(WireRequest(op: .timeline, kind: "GalleryWidget", family: .systemLarge))
            var texts: [String] = []
            r.entries?.first?.view.walk { if let t = $0.text { texts.append(t) } }
            return texts
        }
        let de = try amount("de_DE.UTF-8")
        #expect(de.contains("10.432"))
        #expect(de.contains("1.234,50\u{A0}$"))
        let us = try amount("en_US.UTF-8")
        #expect(us.contains("10,432"))
        #expect(us.contains("$1,234.50"))
    }

    /// `#Preview` blocks (widget + timeline, widget + provider, a plain view) reach the manifest
    /// by name, answer `preview`, and `widgethost preview` shows them.
    @Test func previewsAreListedAndRendered() throws {
        let w = try worker()
        let manifest = try #require(try w.request(WireRequest(op: .describe)).manifest)
        let previews = try #require(manifest.previews)
        #expect(Set(previews.map(\.name)) == ["CityWidget", "Lisbon, medium", "Gallery from its provider", "Grid alone", "Appearance alone"])
        let lisbon = try #require(previews.first { $0.name == "Lisbon, medium" })
        #expect(lisbon.kind == "CityWidget" && lisbon.family == .systemMedium)
        let r = try w.request(WireRequest(op: .preview, kind: lisbon.id, family: .systemMedium))
        var texts: [String] = []
        r.entries?.first?.view.walk { if let t = $0.text { texts.append(t) } }
        #expect(texts.contains("Lisbon") && texts.contains("19°"))
        let city = try #require(previews.first { $0.name == "CityWidget" })
        #expect(try w.request(WireRequest(op: .preview, kind: city.id, family: .systemSmall)).entries?.count == 2)
        let grid = try #require(previews.first { $0.name == "Grid alone" })
        #expect(grid.kind == nil && grid.family == nil)
        #expect(try w.request(WireRequest(op: .preview, kind: grid.id, family: .systemSmall)).entries?.first?.view.kind == .grid)
        #expect(try w.request(WireRequest(op: .preview, kind: "99")).ok == false)

        let out = run(TestPaths.widgethost, ["preview", TestPaths.plugin(TestPaths.appleStyleProduct)],
                      environment: try shiftedClockEnvironment(at: fixedTestInstant))
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout.contains(#"▶ "Lisbon, medium" — CityWidget · systemMedium"#))
        #expect(out.stdout.contains(#"▶ "Gallery from its provider" — GalleryWidget · accessoryInline"#))
        #expect(out.stdout.contains("Steps today: 10432"))
    }
}
