import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// `IntentConfiguration` over a declared `INIntent`, and an `AppEntity` parameter whose picker
/// comes from its query (issue 27 item 3): Tests/SwiftFixtures/IntentsWidget, iOS code with its
/// imports as written, through a real worker, the CLI and a running host.
@Suite struct IntentsBundleTests {
    static let product = "IntentsWidget"

    func worker() throws -> BlockingWorkerClient {
        let so = TestPaths.plugin(Self.product)
        try #require(FileManagerFree.exists(so), "\(so) is missing: run `swift build` before `swift test` (scripts/test.sh does)")
        return try BlockingWorkerClient(pluginPath: so, executable: TestPaths.worker,
                                        environment: try shiftedClockEnvironment(at: fixedTestInstant))
    }

    func texts(_ r: WireResponse) -> [String] {
        var out: [String] = []
        r.entries?.first?.view.walk { if let t = $0.text { out.append(t) } }
        return out
    }

    @Test func bothConfigurationsAreDescribedWithTheirParameters() throws {
        let manifest = try #require(try worker().request(WireRequest(op: .describe)).manifest)
        #expect(manifest.widgets.map(\.kind) == ["WeatherWidget", "CityWidget"])
        let weather = manifest.widgets[0]
        #expect(weather.configuration == "IntentConfiguration")
        #expect(weather.parameters.map(\.name) == ["location", "showFeelsLike", "unit"])
        #expect(weather.parameters.map(\.title) == ["Location", "Show Feels Like", "unit"])
        #expect(weather.parameters.map(\.type) == ["string", "bool", "enum"])
        #expect(weather.parameters[2].options?.map(\.title) == ["Celsius", "Fahrenheit"])
        let city = manifest.widgets[1]
        #expect(city.configuration == "AppIntentConfiguration")
        let parameter = try #require(city.parameters.first)
        #expect(parameter.name == "city" && parameter.type == "entity")
        // The query's suggested entities (not the one it only finds by id), its default result.
        #expect(parameter.options == [EnumOption(value: "berlin", title: "Berlin"), EnumOption(value: "lisbon", title: "Lisbon"),
                                      EnumOption(value: "tokyo", title: "Tokyo")])
        #expect(parameter.defaultValue == .string("lisbon"))
    }

    @Test func theINIntentProviderGetsTheConfiguredValues() throws {
        let w = try worker()
        let r = try w.request(WireRequest(op: .timeline, kind: "WeatherWidget", family: .systemSmall,
                                          configuration: ["location": .string("Oslo"), "showFeelsLike": .bool(true),
                                                          "unit": .string("fahrenheit")]))
        #expect(r.ok, "\(r.error ?? "")")
        #expect(texts(r) == ["Oslo", "39°F", "Feels like 33°F"])
        let plain = try w.request(WireRequest(op: .snapshot, kind: "WeatherWidget", family: .systemSmall))
        #expect(texts(plain) == ["Cupertino", "21°C"])
        let bad = try w.request(WireRequest(op: .timeline, kind: "WeatherWidget", family: .systemSmall,
                                            configuration: ["unit": .string("kelvin")]))
        #expect(!bad.ok && bad.error?.contains("parameter \"unit\"") == true, "\(bad.error ?? "")")
    }

    @Test func theAppIntentProviderGetsTheEntityItsQueryResolves() throws {
        let w = try worker()
        let tokyo = try w.request(WireRequest(op: .timeline, kind: "CityWidget", family: .systemSmall,
                                              configuration: ["city": .string("tokyo")]))
        #expect(texts(tokyo) == ["Tokyo", "UTC+9"])
        // Found by id though never suggested: what a configuration that predates the list keeps.
        let atlantis = try w.request(WireRequest(op: .timeline, kind: "CityWidget", family: .systemSmall,
                                                 configuration: ["city": .string("atlantis")]))
        #expect(texts(atlantis) == ["Atlantis", "UTC-3"])
        let unset = try w.request(WireRequest(op: .snapshot, kind: "CityWidget", family: .systemSmall))
        #expect(texts(unset) == ["Lisbon", "UTC+0"])
        let unknown = try w.request(WireRequest(op: .timeline, kind: "CityWidget", family: .systemSmall,
                                                configuration: ["city": .string("gotham")]))
        #expect(!unknown.ok && unknown.error?.contains("no City with id \"gotham\"") == true, "\(unknown.error ?? "")")
    }

    /// `gallery --json` shows the entities, `configure` takes a suggested id and refuses any
    /// other naming the valid ones, and the running host shows the entity the provider got.
    @Test func theCLIConfiguresAnEntityAndTheHostShowsIt() throws {
        let config = #"{"paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state"}, "widgets": []}"#
        let d = try RunningDaemon(config: config) { dir in
            _ = run("/bin/cp", [TestPaths.plugin(Self.product), dir + "/Plugins/IntentsWidget.so"])
        }
        let file = d.dir.path + "/config.json"
        let gallery = run(TestPaths.widgethost, ["gallery", "--json", "--config", file])
        #expect(gallery.status == 0, "\(gallery.stderr)")
        let items = try WireCodec.decode([[String: JSONValue]].self, from: Data(gallery.stdout.utf8))
        let city = try #require(items.first { $0["kind"] == .string("CityWidget") }?["parameters"]?.arrayValue?.first?.objectValue)
        #expect(city["type"] == .string("entity"))
        #expect(city["options"]?.arrayValue?.compactMap { $0.objectValue?["title"]?.stringValue } == ["Berlin", "Lisbon", "Tokyo"])

        let add = run(TestPaths.widgethost, ["add", "CityWidget", "--family", "systemSmall", "--config", file])
        #expect(add.status == 0, "\(add.stderr)")
        let id = String(add.stdout.dropLast())
        #expect(eventually { d.text(id)?.contains("Lisbon") == true }, "\(d.output(id) ?? [:])\nstderr:\n\(d.stderr)")

        let before = FileManagerFree.read(file)
        for refused in ["gotham", "atlantis"] {
            let r = run(TestPaths.widgethost, ["configure", id, "city=\(refused)", "--config", file])
            #expect(r.status != 0)
            #expect(r.stderr.contains("expects the id of one of: berlin (Berlin), lisbon (Lisbon), tokyo (Tokyo), got '\(refused)'"), "\(r.stderr)")
        }
        #expect(FileManagerFree.read(file) == before, "a refused value leaves the file as it was")

        let configure = run(TestPaths.widgethost, ["configure", id, "city=tokyo", "--config", file])
        #expect(configure.status == 0, "\(configure.stderr)")
        #expect(FileManagerFree.read(file)?.contains("\"city\": \"tokyo\"") == true)
        #expect(eventually { d.text(id)?.contains("Tokyo") == true }, "\(d.output(id) ?? [:])\nstderr:\n\(d.stderr)")

        let weather = run(TestPaths.widgethost, ["add", "WeatherWidget", "--family", "systemMedium", "--param", "location=Lisbon",
                                                 "--param", "unit=fahrenheit", "--config", file])
        #expect(weather.status == 0, "\(weather.stderr)")
        let weatherId = String(weather.stdout.dropLast())
        #expect(eventually { d.text(weatherId)?.contains("64°F") == true }, "\(d.output(weatherId) ?? [:])\nstderr:\n\(d.stderr)")
    }
}
