import FoundationEssentials
import OpenWidgetKit
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Logs for a service (issue 14): at info, state changes only; every reload at debug; no warning
/// for widgets whose bundle is still loading; under systemd, `<N>` priorities and no timestamps.
@Suite(.serialized) struct LogTests {
    /// The shipped config.json in a temp dir, with the example bundles in its Plugins/.
    func shippedConfigDaemon(environment: [String: String?] = [:], logLevel: String) throws -> RunningDaemon {
        let config = try #require(FileManagerFree.read(TestPaths.repoRoot + "/config.json"))
        return try RunningDaemon(config: config, environment: environment, arguments: ["--log-level", logLevel]) { dir in
            for p in TestPaths.exampleProducts {
                let r = run("/bin/cp", [TestPaths.plugin(p), dir + "/Plugins/\(p).so"])
                try #require(r.status == 0, "\(r.stderr)")
            }
        }
    }

    /// Waits until the CPU widget (a reload every 5 s) has been reloaded on its schedule at least
    /// once after its first load, as the daemon's status counts its timeline requests. (Not its
    /// output: a reload that renders the same text writes nothing.)
    func waitForAScheduledReload(_ d: RunningDaemon) -> Bool {
        eventually(timeout: 60) {
            let r = run(TestPaths.widgethost, ["status", "--json", "--config", d.dir.path + "/config.json"])
            guard r.status == 0, let s = try? WireCodec.decode([String: JSONValue].self, from: Data(r.stdout.utf8)),
                  case .array(let widgets)? = s["widgets"] else { return false }
            return widgets.contains { w in
                guard case .object(let o) = w, o["id"] == .string("cpu-accessoryInline"), case .number(let n)? = o["timelineRequests"] else { return false }
                return n >= 2
            }
        }
    }

    @Test func theShippedConfigLogsStateChangesOnlyAtInfo() throws {
        let d = try shippedConfigDaemon(environment: ["INVOCATION_ID": nil, "JOURNAL_STREAM": nil], logLevel: "info")
        #expect(waitForAScheduledReload(d), "stderr:\n\(d.stderr)")
        for id in ["clock-accessoryInline", "cpu-accessoryInline", "memory-accessoryInline", "MyAppWidget-accessoryInline", "ClockyWidget-systemSmall"] {
            #expect(eventually { d.text(id) != nil }, "\(id) is written")
        }
        // The kinds the example bundles declare that the shipped config places nowhere.
        let status = run(TestPaths.widgethost, ["status", "--json", "--config", d.dir.path + "/config.json"])
        let bundles = (try? WireCodec.decode([String: JSONValue].self, from: Data(status.stdout.utf8)))?["bundles"]?.arrayValue ?? []
        let declared = bundles.flatMap { $0.objectValue?["kinds"]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        let config = try #require(FileManagerFree.read(d.dir.path + "/config.json"))
        let unplaced = declared.filter { !config.contains("\"kind\": \"\($0)\"") }
        #expect(!unplaced.isEmpty && declared.count > unplaced.count, "\(status.stdout)")
        d.signal(SIGTERM)
        #expect(d.waitForExit() == 0)
        let lines = d.stderr.split(separator: "\n").map(String.init)
        // Start (paths, running), one line per bundle loaded, one per kind no widget places (issue
        // 22), the render process started once for the shipped config's pictures, one for the
        // home-screen widget whose view has no containerBackground (Clocky's; InteractiveHabit has
        // one), stop (signal, stopped): nothing per reload or picture, nothing from any program but
        // the tests.
        let expected = 2 + TestPaths.exampleProducts.count + unplaced.count + 1 + 1 + 2
        #expect(lines.filter { $0.contains(" ClockyWidget-systemSmall: ClockyWidget (systemSmall): no containerBackground — ") }.count == 1,
                "\(d.stderr)")
        #expect(lines.filter { $0.contains("no containerBackground") }.count == 1, "\(d.stderr)")
        for kind in unplaced {
            #expect(lines.filter { $0.contains(" \(kind): available, not placed — `widgethost add \(kind) --family ") }.count == 1,
                    "\(kind) is named once with the command that places it:\n\(d.stderr)")
        }
        #expect(!d.stderr.contains("control: "), "no control request reached the test's daemon:\n\(d.stderr)")
        #expect(lines.count == expected, "\(lines.count) lines, expected \(expected):\n\(d.stderr)")
        #expect(lines.filter { $0.contains("render process started") }.count == 1)
        #expect(lines.filter { $0.contains("plugin loaded: ") }.count == TestPaths.exampleProducts.count)
        #expect(!d.stderr.contains("reload "), "reloads are logged at debug")
        #expect(!d.stderr.contains(" warning ") && !d.stderr.contains(" error "), "no false warnings at start:\n\(d.stderr)")
        #expect(lines.allSatisfy { $0.first?.isNumber == true }, "a terminal gets timestamps")
    }

    /// A home-screen widget whose view has no containerBackground (iOS 17 shows "Please adopt
    /// containerBackground API" in its place) is named once, not per reload; the same widget in
    /// an accessory family, or with the background, is not.
    @Test func aHomeScreenWidgetWithoutContainerBackgroundIsNamedOnce() throws {
        let line = "probe-systemSmall: probe (systemSmall): no containerBackground — iOS 17 shows \"Please adopt containerBackground API\" "
            + "instead of this widget; add .containerBackground(for: .widget) { … }"
        let bare = try RunningDaemon(arguments: ["--log-level", "info"])
        bare.install(try buildProbe(in: bare.dir.path, name: "probe"), as: "probe.so")
        #expect(eventually { bare.text("probe-systemSmall")?.hasPrefix("v1 none #") == true }, "stderr:\n\(bare.stderr)")
        // A new timeline (a container change): no second line.
        bare.writeContainer("group.probe", "value.txt", "again\n")
        #expect(eventually { bare.text("probe-systemSmall")?.hasPrefix("v1 again #") == true }, "stderr:\n\(bare.stderr)")
        bare.writeContainer("group.probe", "value.txt", "third\n")
        #expect(eventually { bare.text("probe-systemSmall")?.hasPrefix("v1 third #") == true }, "stderr:\n\(bare.stderr)")
        #expect(bare.stderr.components(separatedBy: line).count == 2, "once:\n\(bare.stderr)")
        #expect(!bare.stderr.contains("probe-accessoryInline: probe (accessoryInline)"), "\(bare.stderr)")

        let with = try RunningDaemon(arguments: ["--log-level", "info"])
        with.install(try buildProbe(in: with.dir.path, name: "probe", defines: ["PROBE_BACKGROUND"]), as: "probe.so")
        #expect(eventually { with.text("probe-systemSmall")?.hasPrefix("v1 none #") == true }, "stderr:\n\(with.stderr)")
        #expect(eventually { with.text("probe-accessoryInline") != nil })
        #expect(!with.stderr.contains("containerBackground"), "\(with.stderr)")
    }

    @Test func reloadsAreLoggedAtDebugAndTheJournalGetsPrioritiesWithoutTimestamps() throws {
        let d = try shippedConfigDaemon(environment: ["INVOCATION_ID": "0123456789abcdef", "JOURNAL_STREAM": nil], logLevel: "debug")
        #expect(waitForAScheduledReload(d), "stderr:\n\(d.stderr)")
        d.signal(SIGTERM)
        #expect(d.waitForExit() == 0)
        let lines = d.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("<7>reload cpu-accessoryInline (SystemWidgets.so cpu accessoryInline): first load") }, "\(d.stderr)")
        #expect(lines.contains { $0.hasPrefix("<7>reload cpu-accessoryInline") && !$0.hasSuffix("first load") }, "the scheduled reload, at debug")
        #expect(lines.contains { $0.hasPrefix("<5>plugin loaded: SystemWidgets.so") })
        #expect(lines.contains { $0.hasPrefix("<6>plugins: ") })
        let priorities = Set(lines.map { String($0.prefix(3)) })
        #expect(priorities.isSubset(of: ["<7>", "<6>", "<5>"]), "every line has a priority and nothing is above notice: \(priorities)")
    }
}
