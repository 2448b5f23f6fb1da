import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// The corpus (issue 27 item 4): widget extensions of our own in Tests/SwiftFixtures/Corpus,
/// each written as for iOS in Xcode — a `@main` bundle file, widget files, `AppIntent.swift`,
/// `Assets.xcassets`, `Localizable.strings`, Apple's imports — and built by the package with
/// not one line changed (Package.swift `corpusBundles`). Each is previewed in every family it
/// supports and compared with goldens that were looked at before they were committed
/// (`Fixtures/pictures/Corpus/<Name>/`; re-record with `WIDGETHOST_UPDATE_GOLDENS=1`).
/// Bundles with a dark branch or dark asset colours are previewed in both appearances.
@Suite struct CorpusTests {
    static let corpus = TestPaths.repoRoot + "/Tests/SwiftFixtures/Corpus"
    /// The modules an iOS widget extension imports; nothing of the SDK's own names.
    static let appleModules: Set<String> = ["WidgetKit", "SwiftUI", "AppIntents", "Intents", "Foundation"]
    /// Bundles whose views branch on `colorScheme` or use asset colours with a dark variant:
    /// previewed in the dark appearance too (`-dark-snapshot.png`).
    static let darkBundles: Set<String> = ["Hydration", "WeeklyActivity", "PlantCare"]
    /// Bundles with a German string table: previewed under `LC_ALL=de_DE.UTF-8` too (`-de-snapshot.png`).
    static let germanBundles: Set<String> = ["Errands", "PlantCare"]

    /// Every folder of the corpus is a bundle the tests build and preview, and each is laid out
    /// as Xcode lays out a widget extension, with Apple's imports only.
    @Test func everyBundleIsAnXcodeWidgetExtension() throws {
        let folders = listDirectory(Self.corpus).sorted()
        #expect(folders == TestPaths.corpusProducts.sorted(), "a corpus folder is not in TestPaths.corpusProducts, or the reverse")
        for name in folders {
            let dir = Self.corpus + "/" + name
            let files = listDirectory(dir)
            let bundleFile = try #require(FileManagerFree.read(dir + "/\(name)Bundle.swift"), "\(name) has no \(name)Bundle.swift")
            #expect(bundleFile.contains("@main\nstruct \(name)Bundle: WidgetBundle"), "\(name)Bundle.swift declares no @main bundle")
            #expect(files.contains("AppIntent.swift"), "\(name) has no AppIntent.swift")
            #expect(FileManagerFree.exists(dir + "/Assets.xcassets/Contents.json"), "\(name) has no asset catalogue")
            #expect(files.contains { $0.hasSuffix(".lproj") && FileManagerFree.exists(dir + "/" + $0 + "/Localizable.strings") },
                    "\(name) has no Localizable.strings")
            for file in files where file.hasSuffix(".swift") {
                let source = try #require(FileManagerFree.read(dir + "/" + file))
                for line in source.split(separator: "\n") where line.hasPrefix("import ") {
                    #expect(Self.appleModules.contains(String(line.dropFirst(7))), "\(name)/\(file): \(line)")
                }
                #expect(!source.contains("#if"), "\(name)/\(file) has a conditional: nothing is edited for Linux")
            }
            #expect(FileManagerFree.exists(TestPaths.plugin(name)), "lib\(name).so is missing: run `swift build` before `swift test`")
        }
    }

    @Test(arguments: TestPaths.corpusProducts)
    func picturesMatchTheGoldens(bundle: String) throws {
        let dir = TempDir(); defer { dir.remove() }
        mkdir(dir.path + "/containers", 0o755)
        var variants: [(suffix: String, extra: [String], environment: [String: String])] = [("", [], [:])]
        if Self.darkBundles.contains(bundle) { variants.append(("-dark", ["--dark"], [:])) }
        if Self.germanBundles.contains(bundle) { variants.append(("-de", [], ["LC_ALL": "de_DE.UTF-8"])) }
        var produced: [String] = []
        for v in variants {
            let out = dir.path + "/out" + v.suffix
            try PictureGoldenTests.previewPNGs(bundle, into: out, in: dir, extra: v.extra, environment: v.environment)
            for f in listDirectory(out) where f.hasSuffix("-snapshot.png") {
                let name = String(f.dropLast("-snapshot.png".count)) + v.suffix + "-snapshot.png"
                _ = run("/bin/mv", [out + "/" + f, dir.path + "/" + name])
                produced.append(name)
            }
        }
        try PictureGoldenTests.compare(produced.sorted(), in: dir.path, with: PictureGoldenTests.goldenDir + "/Corpus/" + bundle)
    }

    func worker(_ bundle: String) throws -> BlockingWorkerClient {
        try BlockingWorkerClient(pluginPath: TestPaths.plugin(bundle), executable: TestPaths.worker,
                                 environment: try shiftedClockEnvironment(at: fixedTestInstant))
    }

    func texts(_ r: WireResponse) -> [String] {
        var texts: [String] = []
        r.entries?.first?.view.walk { if let t = $0.text { texts.append(t) } }
        return texts
    }

    func actions(_ r: WireResponse) -> [IntentAction] {
        var actions: [IntentAction] = []
        r.entries?.first?.view.walk { if let a = $0.action { actions.append(a) } }
        return actions
    }

    /// Hydration's `Button(intent:)`s and `Toggle(isOn:intent:)` and Errands' checkboxes run
    /// their intents in the worker, and the next snapshot shows what they changed.
    @Test func theInteractiveBundlesAnswerTheirClicks() throws {
        let w = try worker("Hydration")
        let before = try w.request(WireRequest(op: .snapshot, kind: "HydrationWidget", family: .systemMedium))
        #expect(texts(before).contains("3") && texts(before).contains("750 ml of 2000 ml"), "\(texts(before))")
        let plus = try #require(actions(before).first { $0.title == "Log a glass of water" && $0.parameters["glasses"] == .number(1) })
        #expect(try w.request(WireRequest(op: .perform, kind: "HydrationWidget", family: .systemMedium, action: plus)).ok)
        let reminder = try #require(actions(before).first { $0.title == "Hourly reminder" })
        #expect(reminder.parameters["isOn"] == .bool(false), "the toggle carries the value it sets")
        #expect(try w.request(WireRequest(op: .perform, kind: "HydrationWidget", family: .systemMedium, action: reminder)).ok)
        let after = try w.request(WireRequest(op: .snapshot, kind: "HydrationWidget", family: .systemMedium))
        #expect(texts(after).contains("4") && texts(after).contains("1000 ml of 2000 ml"), "\(texts(after))")
        var isOn: [Bool] = []
        after.entries?.first?.view.walk { if $0.kind == .toggle, let on = $0.isOn { isOn.append(on) } }
        #expect(isOn == [false])

        let e = try worker("Errands")
        let list = try e.request(WireRequest(op: .snapshot, kind: "ErrandsWidget", family: .systemLarge))
        #expect(texts(list).contains("6 open"))
        let parcel = try #require(actions(list).first { $0.parameters["taskID"] == .string("parcel") })
        #expect(try e.request(WireRequest(op: .perform, kind: "ErrandsWidget", family: .systemLarge, action: parcel)).ok)
        #expect(texts(try e.request(WireRequest(op: .snapshot, kind: "ErrandsWidget", family: .systemLarge))).contains("5 open"))
    }

    /// CoinTicker's coin is an `AppEntity`: the picker offers what its `EntityQuery` suggests,
    /// and the provider gets the entity a configuration names. CityWeather's city is the
    /// parameter of a declared `INIntent` behind an `IntentConfiguration`.
    @Test func entityAndIntentConfigurationsReachTheProviders() throws {
        let coins = try worker("CoinTicker")
        let manifest = try #require(try coins.request(WireRequest(op: .describe)).manifest)
        let coin = try #require(manifest.widgets.first?.parameters.first { $0.name == "coin" })
        #expect(coin.options?.map(\.value) == ["bitcoin", "ethereum", "solana", "cardano"])
        #expect(coin.options?.first?.title == "Bitcoin")
        let ada = try coins.request(WireRequest(op: .snapshot, kind: "CoinPriceWidget", family: .systemMedium,
                                                configuration: ["coin": .string("cardano")]))
        #expect(ada.ok, "\(ada.error ?? "")")
        #expect(texts(ada).contains("ADA") && texts(ada).contains("Cardano"), "\(texts(ada))")

        let weather = try worker("CityWeather")
        let widget = try #require(try weather.request(WireRequest(op: .describe)).manifest?.widgets.first)
        #expect(widget.configuration == "IntentConfiguration")
        #expect(widget.parameters.map(\.name) == ["city"])
        let oslo = try weather.request(WireRequest(op: .snapshot, kind: "CityWeatherWidget", family: .systemSmall,
                                                   configuration: ["city": .string("Oslo")]))
        #expect(texts(oslo).contains("Oslo") && texts(oslo).contains("-3°"), "\(texts(oslo))")
    }
}
