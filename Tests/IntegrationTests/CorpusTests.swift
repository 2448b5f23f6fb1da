import FoundationEssentials
import OpenWidgetKit
import Testing
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
    /// Bundles whose views branch on `colorScheme` or use asset colours with a dark variant.
    static let darkBundles: Set<String> = ["Hydration", "WeeklyActivity"]

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
        let goldens = PictureGoldenTests.goldenDir + "/Corpus/" + bundle
        try PictureGoldenTests.previewPNGs(bundle, into: dir.path + "/light", in: dir)
        var produced = listDirectory(dir.path + "/light").filter { $0.hasSuffix("-snapshot.png") }.sorted()
        for f in produced { _ = run("/bin/mv", [dir.path + "/light/" + f, dir.path + "/" + f]) }
        if Self.darkBundles.contains(bundle) {
            try PictureGoldenTests.previewPNGs(bundle, into: dir.path + "/dark", in: dir, extra: ["--dark"])
            for f in listDirectory(dir.path + "/dark") where f.hasSuffix("-snapshot.png") {
                let name = f.dropLast("-snapshot.png".count) + "-dark-snapshot.png"
                _ = run("/bin/mv", [dir.path + "/dark/" + f, dir.path + "/" + name])
                produced.append(name)
            }
        }
        try PictureGoldenTests.compare(produced.sorted(), in: dir.path, with: goldens)
    }
}
