import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
import WidgetRendering
#if canImport(Glibc)
import Glibc
#endif

/// A local stand-in for Open-Meteo (`Fixtures/weather/fake_open_meteo.py`, python3's
/// `http.server`) serving the recorded responses of `Fixtures/weather/`; stopped with the value.
/// No test reaches the internet: the bundle's base URLs point here (`WIDGETHOST_WEATHER_*`).
final class FakeOpenMeteo {
    let dir: String
    private(set) var pid: pid_t = 0
    let port: Int

    static let fixtures = TestPaths.repoRoot + "/Tests/IntegrationTests/Fixtures/weather"

    /// - Parameter shiftToNow: move the recorded times to the real clock's hour (for a sandboxed
    ///   worker, which runs on the real clock).
    init(in dir: String, shiftToNow: Bool) throws {
        self.dir = dir
        mkdir(dir, 0o755)
        #expect(run("/bin/cp", [Self.fixtures + "/forecast-berlin.json", dir + "/forecast.json"]).status == 0)
        #expect(run("/bin/cp", [Self.fixtures + "/geocoding-berlin.json", dir + "/search.json"]).status == 0)
        pid = spawnBackground("/usr/bin/python3", [Self.fixtures + "/fake_open_meteo.py", dir] + (shiftToNow ? ["--shift-to-now"] : []))
        try #require(eventually(timeout: 20) { FileManagerFree.read(dir + "/port") != nil }, "the fake Open-Meteo server did not start")
        port = Int(FileManagerFree.read(dir + "/port") ?? "") ?? 0
    }

    func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGKILL); var st: Int32 = 0; waitpid(pid, &st, 0); pid = 0
    }

    deinit { stop() }

    /// The bundle's environment: both APIs here, and every reload fetches (no 50-minute wait).
    var environment: [String: String] {
        ["WIDGETHOST_WEATHER_FORECAST_URL": "http://127.0.0.1:\(port)/v1/forecast",
         "WIDGETHOST_WEATHER_GEOCODING_URL": "http://127.0.0.1:\(port)/v1/search",
         "WIDGETHOST_WEATHER_MIN_FETCH_SECONDS": "0"]
    }

    var requests: [String] { (FileManagerFree.read(dir + "/requests.log") ?? "").split(separator: "\n").map(String.init) }

    /// What `/v1/forecast` answers from now on.
    func serveForecast(_ body: String) { FileManagerFree.write(dir + "/forecast.json", body) }
}

/// The Weather bundle (Examples/WeatherWidget): the real host, its real sandboxed worker with the
/// `network` permission, URLSession against the fake server; the forecast kept in the bundle's
/// app group when the server answers garbage or is gone. A bundle without `network` reaching no
/// server at all is SandboxEscapeTests' (TCP refused).
@Suite(.serialized) struct WeatherWidgetTests {
    static let inline = "weather-accessoryInline"
    static let config = #"""
        {"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"},
         "widgets": [{"kind": "weather", "family": "accessoryInline", "parameters": {"location": "Berlin"}}]}
        """#

    func cli(_ d: RunningDaemon, _ args: [String]) -> ProcessResult {
        run(TestPaths.widgethost, args + ["--config", d.dir.path + "/config.json"])
    }

    func logLines(_ d: RunningDaemon, _ needle: String) -> Int {
        d.stderr.split(separator: "\n").filter { $0.contains(needle) }.count
    }

    @Test func theSandboxedWorkerShowsTheForecastAndKeepsItWhenTheServerFails() throws {
        let so = TestPaths.plugin("WeatherWidget")
        try #require(FileManagerFree.exists(so), "\(so) is missing: run `swift build` first")
        let serverDir = TempDir(); defer { serverDir.remove() }
        let server = try FakeOpenMeteo(in: serverDir.path + "/srv", shiftToNow: true)
        var env: [String: String?] = ["TZ": "UTC"]
        for (k, v) in server.environment { env[k] = v }
        let d = try RunningDaemon(config: Self.config, environment: env)
        d.install(so, as: "libWeatherWidget.so")

        // The recorded current conditions (6.4 °C, partly cloudy), through geocoding's Berlin.
        #expect(eventually(timeout: 30) { d.text(Self.inline)?.hasSuffix("Berlin 6° Partly Cloudy") == true },
                "got \(d.text(Self.inline) ?? "nothing"); stderr:\n\(d.stderr.suffix(3000))")
        #expect(server.requests.contains { $0.hasPrefix("/v1/search?name=Berlin&") })
        #expect(server.requests.contains { $0.hasPrefix("/v1/forecast?latitude=52.52437&longitude=13.41053&") })
        let defaults = d.dir.path + "/containers/group.org.widgethost.weather/defaults.json"
        #expect(FileManagerFree.read(defaults)?.contains("forecast berlin celsius") == true, "the forecast was not kept")

        // A malformed answer: one log line per answer, the forecast kept and shown as old. (The
        // reload that answers the bundle's own write to its container may fetch too: count the
        // answers the server gave.)
        func forecastRequests() -> Int { server.requests.filter { $0.hasPrefix("/v1/forecast?") }.count }
        let goodAnswers = forecastRequests()
        server.serveForecast(#"{"current": {"time": "soon"}, "hourly": 12"#)
        #expect(cli(d, ["reload", "weather"]).status == 0)
        #expect(eventually(timeout: 30) { d.text(Self.inline)?.hasSuffix("Berlin 6° (old)") == true },
                "got \(d.text(Self.inline) ?? "nothing"); stderr:\n\(d.stderr.suffix(3000))")
        #expect(eventually { logLines(d, "the forecast is not Open-Meteo's JSON") == forecastRequests() - goodAnswers },
                "\(forecastRequests() - goodAnswers) bad answers; stderr:\n\(d.stderr.suffix(3000))")
        #expect(logLines(d, "the forecast is not Open-Meteo's JSON") >= 1)
        #expect(FileManagerFree.read(defaults)?.contains("forecast berlin celsius") == true)

        // The server gone: the same, with the connection's failure in the log.
        server.stop()
        #expect(cli(d, ["reload", "weather"]).status == 0)
        #expect(eventually(timeout: 30) {
            d.stderr.split(separator: "\n").contains { $0.contains("weather: Berlin: ") && $0.contains("127.0.0.1") && $0.contains("keeping the forecast fetched at") }
        }, "stderr:\n\(d.stderr.suffix(3000))")
        #expect(d.text(Self.inline)?.hasSuffix("Berlin 6° (old)") == true, "got \(d.text(Self.inline) ?? "nothing")")

        // A new host (the worker's memory gone) with the server still gone: the kept forecast at once.
        d.signal(SIGTERM)
        #expect(d.waitForExit() == 0)
        let containers = d.dir.path + "/containers"
        let again = try RunningDaemon(config: Self.config, environment: env) { dir in
            _ = run("/bin/cp", ["-r", containers, dir + "/"])
        }
        again.install(so, as: "libWeatherWidget.so")
        #expect(eventually(timeout: 30) { again.text(Self.inline)?.hasSuffix("Berlin 6° (old)") == true },
                "got \(again.text(Self.inline) ?? "nothing"); stderr:\n\(again.stderr.suffix(3000))")
    }

    /// No forecast ever fetched and the server unreachable: the widget says so (no blank, no crash).
    @Test func withNoForecastYetTheWidgetSaysWhatWentWrong() throws {
        let so = TestPaths.plugin("WeatherWidget")
        let serverDir = TempDir(); defer { serverDir.remove() }
        let server = try FakeOpenMeteo(in: serverDir.path + "/srv", shiftToNow: true)
        var env: [String: String?] = ["TZ": "UTC"]
        for (k, v) in server.environment { env[k] = v }
        server.stop()
        let d = try RunningDaemon(config: Self.config.replacingOccurrences(of: "accessoryInline", with: "accessoryRectangular"), environment: env)
        d.install(so, as: "libWeatherWidget.so")
        #expect(eventually(timeout: 30) { d.text("weather-accessoryRectangular")?.contains("Berlin") == true },
                "got \(d.text("weather-accessoryRectangular") ?? "nothing"); stderr:\n\(d.stderr.suffix(3000))")
        let text = d.text("weather-accessoryRectangular") ?? ""
        #expect(text.contains("127.0.0.1"), "the reason is not shown: \(text)")
        #expect(eventually { logLines(d, "weather: Berlin: ") >= 1 && d.stderr.contains("no forecast yet") })
    }
}

/// Picture goldens of every family of the Weather bundle, fresh and stale: `widgethost preview
/// --png` against the fake server, its clock frozen on 19 November 2026 at 09:30 UTC (the
/// recorded forecast's morning), then at 11:35 with the server gone (the kept forecast, greyed,
/// "2 hr, 5 min ago"). The pinned fonts and tolerance of PictureGoldenTests; each golden was
/// looked at before it was committed (`WIDGETHOST_UPDATE_GOLDENS=1` re-records).
@Suite struct WeatherPictureTests {
    static let goldens = PictureGoldenTests.goldenDir + "/WeatherWidget"

    func preview(_ out: String, at instant: Date, server: FakeOpenMeteo, containers: String, in dir: TempDir) throws {
        let env = try frozenClockEnvironment(at: instant).merging(server.environment) { $1 }.merging(
            ["FONTCONFIG_FILE": PictureGoldenTests.fontsConf, "WIDGETHOST_CONTAINERS": containers, "XDG_CACHE_HOME": dir.path + "/cache"]) { $1 }
        let r = run("/usr/bin/timeout", ["300", TestPaths.widgethost, "preview", TestPaths.plugin("WeatherWidget"), "--png", out, "--scale", "2"],
                    environment: env)
        #expect(r.status == 0, "preview failed: \(r.stdout.suffix(2000)) \(r.stderr.suffix(2000))")
    }

    @Test func freshAndStalePicturesMatchTheGoldens() throws {
        let dir = TempDir(); defer { dir.remove() }
        let containers = dir.path + "/containers"
        mkdir(containers, 0o755)
        let server = try FakeOpenMeteo(in: dir.path + "/srv", shiftToNow: false)
        let first = fixedTestInstant  // 09:30 UTC, 10:30 in Berlin
        try preview(dir.path + "/fresh", at: first, server: server, containers: containers, in: dir)
        let firstEntries = listDirectory(dir.path + "/fresh").filter { $0.hasSuffix("-timeline-00.png") }.sorted()
        #expect(firstEntries.count == 5, "\(firstEntries)")
        try PictureGoldenTests.compare(firstEntries, in: dir.path + "/fresh", with: Self.goldens + "/fresh")

        server.stop()
        try preview(dir.path + "/stale", at: first.addingTimeInterval(2 * 3600 + 5 * 60), server: server, containers: containers, in: dir)
        let staleEntries = listDirectory(dir.path + "/stale").filter { $0.hasSuffix("-timeline-00.png") }.sorted()
        try PictureGoldenTests.compare(staleEntries, in: dir.path + "/stale", with: Self.goldens + "/stale")
    }

    /// The timeline: now, then the start of each of the next six hours of the recorded forecast,
    /// each with its own "Now" (the hourly value once the current one is past) and the hours after
    /// it in Berlin's time; a reload an hour later. Units and names reach the requests.
    @Test func entriesFollowTheHourlyForecastAndTheParametersReachTheRequests() throws {
        let dir = TempDir(); defer { dir.remove() }
        let server = try FakeOpenMeteo(in: dir.path + "/srv", shiftToNow: false)
        let env = try shiftedClockEnvironment(at: fixedTestInstant).merging(server.environment) { $1 }
            .merging(["WIDGETHOST_CONTAINERS": dir.path]) { $1 }
        let w = try BlockingWorkerClient(pluginPath: TestPaths.plugin("WeatherWidget"), executable: TestPaths.worker, environment: env)
        let manifest = try #require(try w.request(WireRequest(op: .describe)).manifest)
        #expect(manifest.permissions == ["network"])
        #expect(manifest.appGroups == ["group.org.widgethost.weather"])
        let widget = try #require(manifest.widgets.first)
        #expect(widget.configuration == "AppIntentConfiguration")
        #expect(widget.parameters.map(\.name) == ["location", "units"])

        let r = try w.request(WireRequest(op: .timeline, kind: "weather", family: .systemMedium, configuration: ["location": .string("Berlin")]))
        let entries = try #require(r.entries)
        let t0 = fixedTestInstant.timeIntervalSince1970  // 09:30 UTC
        #expect(entries.count == 7)
        #expect(abs(entries[0].date.timeIntervalSince1970 - t0) < 5)
        #expect(entries.dropFirst().map { Int($0.date.timeIntervalSince1970) } == (1...6).map { Int(t0) - 1800 + $0 * 3600 })
        func texts(_ e: WireEntry) -> [String] { var t: [String] = []; e.view.walk { if let s = $0.text { t.append(s) } }; return t }
        // 09:30 UTC: the current 6.4 °C; the columns 11-15 h in Berlin. 12:00 UTC (13 h in
        // Berlin): that hour's 7.3 °C, mostly clear, the columns from 14 h — and, the forecast
        // being 150 minutes old by then (past the 90 of `WeatherEntry.staleAge`), its age instead
        // of H/L: an entry the host shows when no reload came.
        #expect(texts(entries[0]).starts(with: ["Berlin", "6°", "Partly Cloudy", "H:8° L:2°", "Now", "6°", "11", "6°", "12", "6°", "13", "7°"]), "\(texts(entries[0]))")
        #expect(texts(entries[1]).starts(with: ["Berlin", "6°", "Partly Cloudy", "H:8° L:2°", "Now", "6°", "12", "6°"]), "\(texts(entries[1]))")
        #expect(texts(entries[3]).starts(with: ["Berlin", "7°", "Mostly Clear", " ago", "Now", "7°", "14", "8°"]), "\(texts(entries[3]))")
        #expect(r.policy?.type == "after")
        #expect(abs((r.policy?.date?.timeIntervalSince1970 ?? 0) - (t0 + 3600)) < 5)

        // The hours are read in the place's zone, not the answer's single offset (which is wrong
        // past a daylight-saving change): the same answer said to be New York's (UTC-5 in November).
        let recorded = try #require(FileManagerFree.read(FakeOpenMeteo.fixtures + "/forecast-berlin.json"))
        server.serveForecast(recorded.replacingOccurrences(of: "Europe/Berlin", with: "America/New_York"))
        let ny = try w.request(WireRequest(op: .timeline, kind: "weather", family: .systemMedium, configuration: ["location": .string("Berlin")]))
        let nyTexts = try texts(#require(ny.entries?.first))
        #expect(Array(nyTexts.dropFirst(4).prefix(8)) == ["Now", "6°", "5", "6°", "6", "6°", "7", "7°"], "\(nyTexts)")

        _ = try w.request(WireRequest(op: .timeline, kind: "weather", family: .accessoryInline,
                                      configuration: ["location": .string("São Paulo"), "units": .string("fahrenheit")]))
        #expect(server.requests.contains { $0.hasPrefix("/v1/search?name=S%C3%A3o%20Paulo&") }, "\(server.requests)")
        #expect(server.requests.last?.hasSuffix("&temperature_unit=fahrenheit") == true, "\(server.requests)")
    }
}
