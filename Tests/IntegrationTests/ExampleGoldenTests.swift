import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
import WidgetRendering
#if canImport(Glibc)
import Glibc
#endif

/// Golden renderings of every example in every family it supports, through a real worker and
/// the text renderer. Each golden lives in `Fixtures/goldens/<product>.txt` and was read by a
/// person before it was committed. To re-record after an intended change:
/// `WIDGETHOST_UPDATE_GOLDENS=1 swift test --skip-build --filter ExampleGoldenTests`, then read
/// the diff.
///
/// Every worker runs with its wall clock at `fixedTestInstant` in UTC (`shiftedClockEnvironment`),
/// so no golden depends on today's date, the machine's time zone or its speed. Entries are chosen
/// to be deterministic: snapshots with fixed data (Habit, Stats, CardioBot over a seeded
/// container), Clocky's first entry at second 0, and the system bundle's placeholders (its live
/// values — CPU, memory — differ on every run).
@Suite struct ExampleGoldenTests {
    static let goldenDir = TestPaths.repoRoot + "/Tests/IntegrationTests/Fixtures/goldens"

    enum Pick { case snapshot, placeholder, clockyMinute }

    static let cases: [(product: String, pick: Pick)] = [
        ("HabitWidget", .snapshot),
        ("StatsWidget", .snapshot),
        ("CardioBotWidgets", .snapshot),
        ("ClockyWidget", .clockyMinute),
        ("SystemWidgets", .placeholder),
        ("NetworkDiskWidgets", .snapshot),
    ]

    @Test(arguments: cases.map(\.product))
    func renderingsMatchTheGoldens(product: String) throws {
        let pick = Self.cases.first { $0.product == product }!.pick
        let dir = TempDir(); defer { dir.remove() }
        if product == "CardioBotWidgets" { try seedCardioBot(dir.path) }
        let worker = try BlockingWorkerClient(pluginPath: TestPaths.plugin(product), executable: TestPaths.worker,
                                              environment: try shiftedClockEnvironment(at: fixedTestInstant)
                                                  .merging(["WIDGETHOST_CONTAINERS": dir.path]) { $1 })
        let manifest = try #require(try worker.request(WireRequest(op: .describe)).manifest)
        var out = ""
        for widget in manifest.widgets where !(product == "SystemWidgets" && widget.kind == "battery") {
            for family in widget.families {
                let entry: WireEntry
                switch pick {
                case .snapshot:
                    entry = try #require(try worker.request(WireRequest(op: .snapshot, kind: widget.kind, family: family, isPreview: true)).entries?.first)
                case .placeholder:
                    entry = try #require(try worker.request(WireRequest(op: .placeholder, kind: widget.kind, family: family)).entries?.first)
                case .clockyMinute:
                    let all = try #require(try worker.request(WireRequest(op: .timeline, kind: widget.kind, family: family)).entries)
                    entry = try #require(all.first { Int($0.date.timeIntervalSince1970) % 60 == 0 })
                }
                var options = RenderOptions()
                options.now = entry.date
                let text = TextRenderer.render(entry.view, family: family, options: options)
                out += "== \(widget.kind) \(family.rawValue)\n\(text)\n"
            }
        }
        let path = Self.goldenDir + "/\(product).txt"
        if getenv("WIDGETHOST_UPDATE_GOLDENS") != nil {
            mkdir(Self.goldenDir, 0o755)
            FileManagerFree.write(path, out)
            return
        }
        let golden = try #require(FileManagerFree.read(path), "no golden at \(path)")
        if golden != out {
            // Show the first differing line, not two walls of text.
            let a = golden.split(separator: "\n", omittingEmptySubsequences: false)
            let b = out.split(separator: "\n", omittingEmptySubsequences: false)
            let i = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            Issue.record("\(product) differs from its golden at line \(i + 1):\n golden: \(i < a.count ? String(a[i]) : "<end>")\n    got: \(i < b.count ? String(b[i]) : "<end>")")
        }
    }

    /// Ten vigorous minutes at 09:00 and five moderate ones at 18:00 UTC on the day of
    /// `fixedTestInstant`.
    func seedCardioBot(_ containers: String) throws {
        setenv("WIDGETHOST_CONTAINERS", containers, 1)
        defer { unsetenv("WIDGETHOST_CONTAINERS") }
        let defaults = try #require(SharedDefaults(suiteName: "group.com.cardiobot"))
        let today = Double(Int(fixedTestInstant.timeIntervalSince1970) / 86_400 * 86_400)
        var samples: [JSONValue] = []
        for m in 0..<10 { samples.append(.array([.number(today + 9 * 3600 + Double(m) * 60), .number(160)])) }
        for m in 0..<5 { samples.append(.array([.number(today + 18 * 3600 + Double(m) * 60), .number(125)])) }
        defaults.set(.array(samples), forKey: "heartRates")
    }
}
