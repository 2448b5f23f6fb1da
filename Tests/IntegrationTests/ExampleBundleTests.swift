import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
import WidgetRendering
#if canImport(Glibc)
import Glibc
#endif

/// Every example `.so` through a real worker: each widget answers placeholder, snapshot and
/// timeline in every family it declares, and the seed-specific semantics hold.
@Suite struct ExampleBundleTests {
    func worker(_ product: String, containers: String? = nil) throws -> BlockingWorkerClient {
        let so = TestPaths.plugin(product)
        try #require(FileManagerFree.exists(so), "\(so) is missing: run `swift build` before `swift test` (scripts/test.sh does)")
        // Every worker's wall clock stands at `fixedTestInstant` in UTC: what the widgets show
        // and when their policies reload do not depend on the day the tests run.
        var env = try shiftedClockEnvironment(at: fixedTestInstant)
        if let containers { env["WIDGETHOST_CONTAINERS"] = containers }
        return try BlockingWorkerClient(pluginPath: so, executable: TestPaths.worker, environment: env)
    }

    @Test(arguments: TestPaths.exampleProducts)
    func everyWidgetAnswersInEveryFamily(product: String) throws {
        let dir = TempDir(); defer { dir.remove() }
        let w = try worker(product, containers: dir.path)
        let manifest = try #require(try w.request(WireRequest(op: .describe)).manifest)
        #expect(!manifest.widgets.isEmpty)
        #expect(manifest.sdkVersion == openWidgetKitVersion)
        for widget in manifest.widgets {
            #expect(!widget.families.isEmpty)
            for family in widget.families {
                let placeholder = try w.request(WireRequest(op: .placeholder, kind: widget.kind, family: family))
                #expect(placeholder.ok, "\(widget.kind) \(family): \(placeholder.error ?? "")")
                #expect(placeholder.entries?.first?.view.modifiers?.redacted == true)
                let snapshot = try w.request(WireRequest(op: .snapshot, kind: widget.kind, family: family, isPreview: true))
                #expect(snapshot.ok, "\(widget.kind) \(family): \(snapshot.error ?? "")")
                #expect(snapshot.entries?.count == 1)
                let timeline = try w.request(WireRequest(op: .timeline, kind: widget.kind, family: family))
                #expect(timeline.ok, "\(widget.kind) \(family): \(timeline.error ?? "")")
                let entries = timeline.entries ?? []
                #expect(!entries.isEmpty)
                #expect(entries.map(\.date) == entries.map(\.date).sorted(), "entries out of order")
                #expect(timeline.policy != nil)
            }
        }
    }

    @Test func clockyHasSixtyOneSecondEntriesAtEnd() throws {
        let w = try worker("ClockyWidget")
        let r = try w.request(WireRequest(op: .timeline, kind: "ClockyWidget", family: .systemMedium))
        let dates = try #require(r.entries).map(\.date.timeIntervalSince1970)
        #expect(dates.count == 60)
        #expect(zip(dates, dates.dropFirst()).allSatisfy { abs($1 - $0 - 1) < 0.001 })
        #expect(r.policy == WirePolicy(type: "atEnd"))
        // The medium family shows two clocks: local and Berlin.
        var labels: [String] = []
        r.entries?.first?.view.walk { if let t = $0.text, ["Local", "Berlin"].contains(t) { labels.append(t) } }
        #expect(labels == ["Local", "Berlin"])
    }

    @Test func statsRefreshesAtMidnightAndHonoursItsParameter() throws {
        let w = try worker("StatsWidget")
        let manifest = try #require(try w.request(WireRequest(op: .describe)).manifest)
        let widget = try #require(manifest.widgets.first)
        #expect(widget.configuration == "AppIntentConfiguration")
        #expect(widget.parameters.first?.name == "statType")
        #expect(widget.parameters.first?.options?.map(\.value) == ["steps", "calories", "distance"])
        let r = try w.request(WireRequest(op: .timeline, kind: widget.kind, family: .systemSmall, configuration: ["statType": .string("calories")]))
        var texts: [String] = []
        r.entries?.first?.view.walk { if let t = $0.text { texts.append(t) } }
        #expect(texts.contains("487"))
        #expect(texts.contains("kcal"))
        let policyDate = try #require(r.policy?.date).timeIntervalSince1970
        #expect(r.policy?.type == "after")
        // The next midnight after the worker's now (Thursday 19 November 2026, 09:30 UTC).
        #expect(policyDate == 1_795_132_800, "not the next midnight UTC")
    }

    @Test func habitReadsSharedDefaultsAndItsLogButtonCounts() throws {
        let dir = TempDir(); defer { dir.remove() }
        setenv("WIDGETHOST_CONTAINERS", dir.path, 1)
        defer { unsetenv("WIDGETHOST_CONTAINERS") }
        let defaults = try #require(SharedDefaults(suiteName: "group.com.yourapp.shared"))
        defaults.set("Read", forKey: "habitName")
        defaults.set(6, forKey: "completedCount")
        defaults.set(8, forKey: "goalCount")

        let w = try worker("HabitWidget", containers: dir.path)
        let manifest = try #require(try w.request(WireRequest(op: .describe)).manifest)
        #expect(manifest.appGroups == ["group.com.yourapp.shared"])
        #expect(Set(manifest.widgets.map(\.kind)) == ["MyAppWidget", "InteractiveHabit"])
        #expect(manifest.widgets.first { $0.kind == "MyAppWidget" }?.families.count == 6)

        let inline = try w.request(WireRequest(op: .timeline, kind: "MyAppWidget", family: .accessoryInline))
        var texts: [String] = []
        inline.entries?.first?.view.walk { if let t = $0.text { texts.append(t) } }
        #expect(texts.contains("Read: 6/8"))

        // The small family carries the article's widgetURL.
        let small = try w.request(WireRequest(op: .timeline, kind: "MyAppWidget", family: .systemSmall))
        var urls: [String] = []
        small.entries?.first?.view.walk { if let u = $0.modifiers?.widgetURL { urls.append(u) } }
        #expect(urls == ["myapp://habit/drink-water"])

        // Click "Log": perform runs in the worker, writes the container, asks for a reload.
        let interactive = try w.request(WireRequest(op: .timeline, kind: "InteractiveHabit", family: .systemSmall))
        var actions: [IntentAction] = []
        interactive.entries?.first?.view.walk { if let a = $0.action { actions.append(a) } }
        #expect(actions.count == 2)
        let log = try #require(actions.first { $0.title == "Log Habit" })
        let performed = try w.request(WireRequest(op: .perform, kind: "InteractiveHabit", family: .systemSmall, action: log))
        #expect(performed.ok, "\(performed.error ?? "")")
        #expect(performed.reloadRequests == ["*"])
        #expect(defaults.integer(forKey: "completedCount") == 7)

        // The toggle carries the value it will set.
        let toggle = try #require(actions.first { $0.title == "Toggle Habit" })
        #expect(toggle.parameters["isCompleted"] == .bool(true))
        _ = try w.request(WireRequest(op: .perform, kind: "InteractiveHabit", family: .systemSmall, action: toggle))
        #expect(defaults.bool(forKey: "habitCompleted"))
    }

    @Test func performWorksInAFreshWorkerThatNeverRenderedTheButton() throws {
        let dir = TempDir(); defer { dir.remove() }
        let first = try worker("HabitWidget", containers: dir.path)
        let r = try first.request(WireRequest(op: .timeline, kind: "InteractiveHabit", family: .systemSmall))
        var log: IntentAction?
        r.entries?.first?.view.walk { if $0.action?.title == "Log Habit" { log = $0.action } }
        let action = try #require(log)
        let fresh = try worker("HabitWidget", containers: dir.path)
        let performed = try fresh.request(WireRequest(op: .perform, kind: "InteractiveHabit", family: .systemSmall, action: action))
        #expect(performed.ok, "\(performed.error ?? "")")
    }

    @Test func cardioBotIsABundleOfTwoWidgetsWithAChart() throws {
        let dir = TempDir(); defer { dir.remove() }
        setenv("WIDGETHOST_CONTAINERS", dir.path, 1)
        defer { unsetenv("WIDGETHOST_CONTAINERS") }
        let defaults = try #require(SharedDefaults(suiteName: "group.com.cardiobot"))
        let today = Double(Int(fixedTestInstant.timeIntervalSince1970) / 86_400 * 86_400)
        // 10 vigorous minutes at 09:00 UTC and 5 moderate ones at 18:00 (age 29: max 191).
        func sample(hour: Double, minute: Int, bpm: Double) -> JSONValue {
            let start: Double = today + hour * 3600 + Double(minute) * 60
            return .array([.number(start), .number(bpm)])
        }
        let vigorous: [JSONValue] = (0..<10).map { sample(hour: 9, minute: $0, bpm: 160) }
        let moderate: [JSONValue] = (0..<5).map { sample(hour: 18, minute: $0, bpm: 125) }
        let samples = vigorous + moderate
        defaults.set(.array(samples), forKey: "heartRates")

        let w = try worker("CardioBotWidgets", containers: dir.path)
        let manifest = try #require(try w.request(WireRequest(op: .describe)).manifest)
        #expect(manifest.widgets.map(\.kind) == ["heartRateWidget", "latestHeartRate"])
        let r = try w.request(WireRequest(op: .timeline, kind: "heartRateWidget", family: .systemLarge))
        var texts: [String] = []
        var bars = 0
        r.entries?.first?.view.walk {
            if let t = $0.text { texts.append(t) }
            if $0.shape?.type == "rectangle" { bars += 1 }
        }
        #expect(texts.contains("25"), "10×2 + 5×1 heart points; got \(texts)")
        #expect(bars == 24)
        #expect(r.policy == WirePolicy(type: "atEnd"))
    }
}

/// The symbols of the text renderers must show in real bars: every glyph of the plain table is in
/// DejaVu Sans and DejaVu Sans Mono (Debian's default fonts, which waybar, polybar and i3bar's
/// `pango:monospace` fall back to), asked of fontconfig. `🯅` (Steps) was tofu in every bar.
@Suite struct GlyphCoverageTests {
    @Test(arguments: ["DejaVu Sans", "DejaVu Sans Mono"])
    func everyPlainGlyphIsInTheDefaultFont(family: String) throws {
        let installed = run("/usr/bin/fc-list", [family, "family"])
        try #require(installed.status == 0 && installed.stdout.contains(family),
                     "\(family) is not installed (scripts/install-deps.sh installs fonts-dejavu-core)")
        var missing: [String] = []
        for glyph in Set(GlyphMap.plain.values).sorted() {
            let charset = glyph.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
            let r = run("/usr/bin/fc-list", ["\(family):charset=\(charset)", "family"])
            if r.stdout.isEmpty { missing.append("\(glyph) U+\(charset.uppercased())") }
        }
        #expect(missing.isEmpty, "not in \(family): \(missing)")
    }

    /// `follow --nerd-font` turns the host's plain symbols into Nerd Font ones, and leaves text,
    /// progress bars and ASCII alone.
    @Test func nerdFontTextReplacesSymbolsOnly() {
        #expect(GlyphMap.nerdFontText("♨ Habit: 6/8 █████░░░ +") == "\u{F06D} Habit: 6/8 █████░░░ +")
        #expect(GlyphMap.nerdFontText("☺ 8,432") == "\u{F183} 8,432", "☺ is figure.walk (Steps) before person")
        #expect(GlyphMap.nerdFontText("plain text") == "plain text")
    }
}
