import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetGraphics
import WidgetHostCore
import WidgetRendering
#if canImport(Glibc)
import Glibc
#endif

/// The World Clock bundle (`Examples/WorldClockWidget`, issue 29 item 6): the hands' angles in
/// the trees the real plugin answers with, across time zones, half-hour offsets and a DST
/// change (fixed instants through the shifted-clock shim); its pictures in every family, light
/// and dark, against goldens; and a real host writing two cities' times to its text output.
@Suite struct WorldClockTests {
    static let product = "WorldClockWidget"
    static let goldens = PictureGoldenTests.goldenDir + "/WorldClockWidget"

    /// The hour and minute hands of each face in `tree`, by the city and time its accessibility
    /// label begins with ("Paris, 11:09"): the face's two `VStack`s with a rotation, hour first.
    static func hands(in tree: ViewNode) -> [String: (hour: Double, minute: Double)] {
        var out: [String: (Double, Double)] = [:]
        func rotatedStacks(_ n: ViewNode) -> [Double] {
            (n.kind == .vstack && n.modifiers?.rotation != nil ? [n.modifiers!.rotation!] : []) + (n.children ?? []).flatMap(rotatedStacks)
        }
        func visit(_ n: ViewNode) {
            if let label = n.modifiers?.accessibilityLabel {
                let r = rotatedStacks(n)
                // "Paris, 11:09" of the medium widget's column label "Paris, 11:09, Today, +1HRS".
                if r.count == 2 { out[label.split(separator: ",").prefix(2).joined(separator: ",")] = (r[0], r[1]) }
                return
            }
            (n.children ?? []).forEach(visit)
        }
        visit(tree)
        return out
    }

    /// Equal angles but for the rounding of degrees through radians (`Angle` keeps radians).
    static func close(_ a: (hour: Double, minute: Double), _ b: (hour: Double, minute: Double)) -> Bool {
        abs(a.hour - b.hour) < 1e-9 && abs(a.minute - b.minute) < 1e-9
    }

    /// The timeline of the medium widget for `cities` with the worker's clock at `instant`
    /// (seconds since 1970) in time zone `tz`.
    static func timeline(at instant: Int, tz: String = "UTC", cities: [String]) throws -> [WireEntry] {
        let worker = try BlockingWorkerClient(pluginPath: TestPaths.plugin(product), executable: TestPaths.worker,
                                              environment: try shiftedClockEnvironment(at: Date(timeIntervalSince1970: Double(instant)), timeZone: tz))
        var config: [String: JSONValue] = [:]
        for (i, c) in cities.enumerated() { config["city\(i + 1)"] = .string(c) }
        let answer = try worker.request(WireRequest(op: .timeline, kind: "worldclock", family: .systemMedium, configuration: config))
        return try #require(answer.entries)
    }

    /// The entry the screen shows at `t`: the last one dated at or before it.
    static func shown(_ entries: [WireEntry], at t: Int) -> WireEntry? {
        entries.last { Int($0.date.timeIntervalSince1970.rounded(.down)) <= t }
    }

    /// 2026-03-15 10:09:00 UTC: Paris on CET, New York already on EDT (since 8 March),
    /// Kathmandu at +5:45, Sydney on AEDT. At 10:09:30 every hand is exact; at any second of
    /// the minute the minute hand is within 3° (half a minute) of the true time.
    @Test func handsAreRightAcrossZonesAtEveryInstantOfAMinute() throws {
        let minute = 1_773_569_340  // 2026-03-15 10:09:00 UTC
        let entries = try Self.timeline(at: minute + 5, cities: ["paris", "newYork", "kathmandu", "sydney"])
        #expect(entries.count == 120)
        // Two hours of the medium widget stay well within the host's 8 MiB a response
        // (`limits.maxResponseBytes`; a longer timeline of these trees would be refused).
        let bytes = try WireCodec.encode(entries).count
        #expect(bytes < 5 << 20, "\(bytes) bytes")
        let dates = entries.map { Int($0.date.timeIntervalSince1970.rounded(.down)) }
        // The first entry is the worker's now; then the start of every minute after it.
        #expect(dates.first.map { $0 >= minute + 5 && $0 < minute + 60 } == true, "\(dates.prefix(3))")
        #expect(Array(dates.dropFirst().prefix(3)) == [minute + 60, minute + 120, minute + 180])
        let entry = try #require(Self.shown(entries, at: minute + 30))
        let hands = Self.hands(in: entry.view)
        // Wall seconds at 10:09:30 UTC → hour = s mod 43 200 / 120, minute = s mod 3 600 / 10.
        let expected: [String: (hour: Double, minute: Double)] = [
            "Paris, 11:09": (334.75, 57),        // 11:09:30
            "New York, 06:09": (184.75, 57),     // 06:09:30 EDT
            "Kathmandu, 15:54": (117.25, 327),   // 15:54:30
            "Sydney, 21:09": (274.75, 57),       // 21:09:30 AEDT
        ]
        #expect(Set(hands.keys) == Set(expected.keys), "\(hands.keys.sorted())")
        for (label, want) in expected {
            let got = try #require(hands[label])
            #expect(Self.close(got, want), "\(label): \(got) != \(want)")
        }
        // Every 5 s of the next two minutes: the shown minute hand against the true one (UTC faces
        // are not asked for, so Paris: true minute angle = (UTC seconds of the hour) / 10).
        for t in stride(from: minute + 60, to: minute + 180, by: 5) {
            let e = try #require(Self.shown(entries, at: t))
            let paris = try #require(Self.hands(in: e.view).first { $0.key.hasPrefix("Paris, ") }?.value)
            let truth = Double(t % 3600) / 10
            #expect(abs(paris.minute - truth) <= 3 + 1e-9, "at \(t): \(paris.minute) vs \(truth)")
            let trueHour = Double((t + 3600) % 43_200) / 120
            #expect(abs(paris.hour - trueHour) <= 0.25 + 1e-9, "at \(t): \(paris.hour) vs \(trueHour)")
        }
    }

    /// New York springs forward at 2026-03-08 07:00 UTC (02:00 EST is 03:00 EDT): the entry of
    /// 06:59 shows 01:59:30, the next 03:00:30, and the offset under the face changes with it
    /// (the reader here is in Berlin, CET: -6 hours, then -5).
    @Test func aDSTChangeMovesTheHandsAnHourAtTheChange() throws {
        let change = 1_772_953_200
        let entries = try Self.timeline(at: change - 90, tz: "Europe/Berlin", cities: ["newYork", "tokyo", "london", "utc"])
        let before = try #require(Self.shown(entries, at: change - 1)), after = try #require(Self.shown(entries, at: change))
        #expect(Int(after.date.timeIntervalSince1970) == change)
        let b = Self.hands(in: before.view), a = Self.hands(in: after.view)
        let nyBefore = try #require(b["New York, 01:59"], "\(b.keys.sorted())")
        let nyAfter = try #require(a["New York, 03:00"], "\(a.keys.sorted())")
        #expect(Self.close(nyBefore, (59.75, 357)), "\(nyBefore)")   // 01:59:30
        #expect(Self.close(nyAfter, (90.25, 3)), "\(nyAfter)")       // 03:00:30
        // Tokyo has no DST: its hands only move on by a minute (15:59:30 → 16:00:30 JST).
        #expect(b["Tokyo, 15:59"].map { Self.close($0, (119.75, 357)) } == true, "\(b.keys.sorted())")
        #expect(a["Tokyo, 16:00"].map { Self.close($0, (120.25, 3)) } == true, "\(a.keys.sorted())")
        // Under the faces, against Berlin (CET, +1): New York -6 then -5, Tokyo +8, London -1.
        let labelsBefore = Self.texts(in: before.view), labelsAfter = Self.texts(in: after.view)
        #expect(labelsBefore.contains("Today, -6HRS") && !labelsBefore.contains("Today, -5HRS"), "\(labelsBefore)")
        #expect(labelsAfter.contains("Today, -5HRS") && labelsAfter.contains("Today, +8HRS") && labelsAfter.contains("Today, -1HRS"),
                "\(labelsAfter)")
    }

    /// Every text of a tree, in order.
    static func texts(in n: ViewNode) -> [String] { (n.text.map { [$0] } ?? []) + (n.children ?? []).flatMap(texts) }

    /// A day apart: at 2026-03-15 23:30 UTC Tokyo is on the 16th, Honolulu (-10) on the 15th
    /// as UTC is — and at 08:00 UTC Honolulu is still on the 14th.
    @Test func theDayUnderAFaceIsTheCitysAgainstTheReaders() throws {
        let late = try Self.timeline(at: 1_773_617_400, cities: ["tokyo", "honolulu", "utc", "kathmandu"])
        let texts = Self.texts(in: try #require(late.first).view)
        #expect(texts.contains("Tomorrow, +9HRS") && texts.contains("Today, -10HRS") && texts.contains("Today, +0HRS")
                && texts.contains("Tomorrow, +5:45HRS"), "\(texts)")
        let early = try Self.timeline(at: 1_773_561_600, cities: ["honolulu", "tokyo", "utc", "utc"])
        #expect(Self.texts(in: try #require(early.first).view).contains("Yesterday, -10HRS"))
    }

    /// The manifest the Edit Widget form is built from: four city menus (`AppEnum`: type
    /// "enum" with every city as an option, by its display name) with Apple's default cities,
    /// in the five families, and no declarations (no containers, network or bus names).
    @Test func theCitiesAreFourMenusOfTheManifest() throws {
        let worker = try BlockingWorkerClient(pluginPath: TestPaths.plugin(Self.product), executable: TestPaths.worker)
        let manifest = try #require(try worker.request(WireRequest(op: .describe)).manifest)
        #expect(manifest.bundleId == "org.widgethost.worldclock" && manifest.appGroups.isEmpty && (manifest.permissions ?? []).isEmpty)
        let widget = try #require(manifest.widgets.first { $0.kind == "worldclock" })
        #expect(Set(widget.families) == [.systemSmall, .systemMedium, .systemLarge, .accessoryCircular, .accessoryRectangular])
        #expect(widget.parameters.map(\.name) == ["city1", "city2", "city3", "city4"])
        #expect(widget.parameters.map(\.defaultValue) == ["cupertino", "tokyo", "sydney", "paris"].map { JSONValue.string($0) })
        for p in widget.parameters {
            #expect(p.type == "enum")
            let options = p.options ?? []
            #expect(options.count == 73 && options.contains { $0.value == "saoPaulo" && $0.title == "São Paulo" }, "\(p.name): \(options.count)")
        }
    }

    /// The snapshot of every family, light and dark, at 2026-03-15 10:09:12 UTC (hands drawn at
    /// 10:09:30): Cupertino, Tokyo, Sydney, Paris — night faces black, Paris's white. Goldens
    /// in `Fixtures/pictures/WorldClockWidget/` (each looked at before it was committed).
    @Test(arguments: [false, true])
    func picturesMatchTheGoldens(dark: Bool) throws {
        let dir = TempDir(); defer { dir.remove() }
        let out = dir.path + "/png"
        let r = run("/usr/bin/timeout", ["300", TestPaths.widgethost, "preview", TestPaths.plugin(Self.product), "--png", out, "--scale", "2"]
                        + (dark ? ["--dark"] : []),
                    environment: try frozenClockEnvironment(at: Date(timeIntervalSince1970: 1_773_569_352)).merging(
                        ["FONTCONFIG_FILE": PictureGoldenTests.fontsConf, "XDG_CACHE_HOME": dir.path + "/cache",
                         "WIDGETHOST_CONTAINERS": dir.path + "/containers"]) { $1 })
        try #require(r.status == 0, "preview failed: \(r.stderr.suffix(2000))")
        // Named -dark so both appearances live in one folder.
        let produced = listDirectory(out).filter { $0.hasSuffix("-snapshot.png") }.sorted()
        let suffix = dark ? "-dark.png" : ".png"
        for f in produced where dark { rename(out + "/" + f, out + "/" + f.dropLast(4) + "-dark.png") }
        let names = produced.map { String($0.dropLast(4)) + suffix }
        try Self.compare(names, in: out, dark: dark)
    }

    /// As `PictureGoldenTests.compare`, for one appearance's files of the shared folder.
    static func compare(_ produced: [String], in out: String, dark: Bool) throws {
        #expect(produced.count == 5, "\(produced)")
        func mine(_ f: String) -> Bool { f.hasSuffix("-dark.png") == dark }
        if getenv("WIDGETHOST_UPDATE_GOLDENS") != nil {
            _ = run("/bin/mkdir", ["-p", goldens])
            for f in listDirectory(goldens) where mine(f) { unlink(goldens + "/" + f) }
            for f in produced { _ = run("/bin/cp", [out + "/" + f, goldens + "/" + f]) }
            return
        }
        #expect(listDirectory(goldens).filter(mine).sorted() == produced, "the set of pictures changed")
        for f in produced {
            let got = try #require(readBytes(out + "/" + f).flatMap(PixelImage.decodePNG), "cannot read \(f)")
            guard let golden = readBytes(goldens + "/" + f).flatMap(PixelImage.decodePNG) else {
                Issue.record("no golden \(goldens)/\(f)")
                continue
            }
            let differing = got.differingPixels(from: golden, threshold: PictureGoldenTests.threshold)
            #expect(differing <= PictureGoldenTests.maxDiffering(golden), "\(goldens)/\(f): \(differing) pixels differ")
        }
    }

    /// A real host (sandboxed worker, real time, `TZ=UTC`) shows Tokyo's and Mumbai's times —
    /// zones without DST, so the test knows them: UTC+9 and UTC+5:30 — in the large widget's text
    /// output (one line: each row read as its accessibility label), from the zoneinfo the
    /// worker's sandbox lets it see.
    @Test func aRealHostWritesTwoCitiesTimes() throws {
        let config = """
            {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "control.sock"},
             "widgets": [{"id": "world", "kind": "worldclock", "family": "systemLarge", "outputs": ["files"],
                          "parameters": {"city1": "tokyo", "city2": "mumbai", "city3": "utc", "city4": "kathmandu"}}]}
            """
        let d = try RunningDaemon(config: config, environment: ["TZ": "UTC", "LC_ALL": "C.UTF-8"]) { dir in
            let r = run("/bin/cp", [TestPaths.plugin(Self.product), dir + "/Plugins/WorldClockWidget.so"])
            try #require(r.status == 0, "\(r.stderr)")
        }
        func hm(_ t: Int) -> String {
            let s = ((t % 86_400) + 86_400) % 86_400
            func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
            return "\(two(s / 3600)):\(two(s % 3600 / 60))"
        }
        var last = ""
        // The text read must show, for a minute of the last few seconds, both cities' times.
        let shown = eventually(timeout: 60) {
            guard let text = FileManagerFree.read(d.dir.path + "/out/world.txt") else { return false }
            last = text
            let now = Int(Date().timeIntervalSince1970)
            return [now, now - 5].contains { t in
                text.contains("Tokyo, \(hm(t + 9 * 3600)), Today, +9HRS") && text.contains("Mumbai, \(hm(t + 19_800)), Today, +5:30HRS")
            }
        }
        #expect(shown, "\(last)\n\(d.stderr.suffix(2000))")
    }
}
