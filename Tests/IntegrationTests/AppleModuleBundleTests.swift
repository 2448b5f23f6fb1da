import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
import WidgetRendering
#if canImport(Glibc)
import Glibc
#endif

/// The modules with Apple's names (issue 27): Tests/SwiftFixtures/XcodeStyleWidget is an iOS
/// widget extension as Xcode writes it — `import WidgetKit`, `import SwiftUI`,
/// `import AppIntents`, `import UIKit`, Foundation's formatters and defaults, `#Preview` and a `PreviewProvider`
/// — built by the package with not one line changed, and run through a real worker.
@Suite struct AppleModuleBundleTests {
    static let fixture = TestPaths.repoRoot + "/Tests/SwiftFixtures/XcodeStyleWidget"

    func worker() throws -> BlockingWorkerClient {
        let so = TestPaths.plugin(TestPaths.xcodeStyleProduct)
        try #require(FileManagerFree.exists(so), "\(so) is missing: run `swift build` before `swift test` (scripts/test.sh does)")
        return try BlockingWorkerClient(pluginPath: so, executable: TestPaths.worker,
                                        environment: try shiftedClockEnvironment(at: fixedTestInstant))
    }

    func texts(_ kind: String, _ family: WidgetFamily, op: WireOperation = .snapshot) throws -> [String] {
        let r = try worker().request(WireRequest(op: op, kind: kind, family: family))
        #expect(r.ok, "\(kind) \(family): \(r.error ?? "")")
        var texts: [String] = []
        r.entries?.first?.view.walk { if let t = $0.text { texts.append(t) } }
        return texts
    }

    /// The fixture is iOS code: Apple's imports only, never the SDK's own module names.
    @Test func theFixtureImportsOnlyApplesModules() throws {
        var imports: Set<String> = []
        for file in listDirectory(Self.fixture) where file.hasSuffix(".swift") {
            let source = try #require(FileManagerFree.read(Self.fixture + "/" + file))
            for line in source.split(separator: "\n") where line.hasPrefix("import ") { imports.insert(String(line.dropFirst(7))) }
        }
        #expect(imports == ["WidgetKit", "SwiftUI", "AppIntents", "UIKit"])
    }

    /// Xcode's template (an `AppIntentConfiguration` with its emoji parameter) and the budget
    /// widget's `configurationDisplayName(Text)` / `description(Text)` reach the manifest.
    @Test func theWidgetsReachTheManifest() throws {
        let manifest = try #require(try worker().request(WireRequest(op: .describe)).manifest)
        #expect(manifest.bundleId == "XcodeStyleWidget.XcodeStyleWidgetBundle")
        #expect(manifest.widgets.map(\.kind) == ["XcodeStyleWidget", "BudgetWidget"])
        let template = manifest.widgets[0]
        #expect(template.configuration == "AppIntentConfiguration")
        #expect(template.parameters.map(\.name) == ["favoriteEmoji"])
        let budget = manifest.widgets[1]
        #expect(budget.displayName == "Budget" && budget.description == "What is left of this month's budget.")
        #expect(budget.families == [.systemSmall, .systemMedium])
        #expect(try texts("XcodeStyleWidget", .systemSmall).contains("😃"))
    }

    /// Foundation through `import WidgetKit`, in the worker: `UserDefaults` (registered values),
    /// `NumberFormatter` (currency), `DateFormatter`, `NSLocalizedString`, `CharacterSet`, and
    /// `"\(x, specifier:)"`.
    @Test func foundationNamesWorkInTheWorker() throws {
        let medium = try texts("BudgetWidget", .systemMedium)
        for expected in ["$1,234.50", "62% of $2,000.00", "GR", "Monthly budget", "Was $2,500.00", "Budget", "Updated Thu 19 Nov"] {
            #expect(medium.contains(expected), "systemMedium lacks \(expected): \(medium)")
        }
        #expect(!(try texts("BudgetWidget", .systemSmall)).contains("Budget"), "the small family has no struck-through line")
    }

    /// `Color(uiColor: .secondarySystemBackground)` (`import UIKit`) is iOS's grouped background
    /// in each appearance: the worker resolves it in the request's scheme (`preview --dark`).
    @Test func aUIKitColourFollowsTheAppearance() throws {
        let w = try worker()
        func background(_ scheme: ColorScheme) throws -> [Double]? {
            let r = try w.request(WireRequest(op: .snapshot, kind: "BudgetWidget", family: .systemSmall, colorScheme: scheme))
            return r.entries?.first?.view.modifiers?.containerBackground?.rgba
        }
        #expect(try background(.light) == [0.949, 0.949, 0.969, 1])
        #expect(try background(.dark) == [0.110, 0.110, 0.118, 1])
    }

    /// `#Preview` through `import WidgetKit` (no `import WidgetPreviews`) is listed and rendered.
    @Test func previewsNeedNoExtraImport() throws {
        let w = try worker()
        let previews = try #require(try w.request(WireRequest(op: .describe)).manifest?.previews)
        #expect(previews.map(\.kind) == ["XcodeStyleWidget", "BudgetWidget"])
        let template = try #require(previews.first { $0.kind == "XcodeStyleWidget" })
        let r = try w.request(WireRequest(op: .preview, kind: template.id, family: .systemSmall))
        var emoji: [String] = []
        for entry in r.entries ?? [] { entry.view.walk { if let t = $0.text, t.unicodeScalars.first?.properties.isEmoji == true { emoji.append(t) } } }
        #expect(emoji == ["😀", "🤩"])
    }
}
