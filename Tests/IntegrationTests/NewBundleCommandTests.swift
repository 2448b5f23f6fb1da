import FoundationEssentials
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost new-bundle`'s refusals, each with what to do; what it writes is
/// docs/plugin-authoring.md's text (`PluginGuideTests`, which also builds it).
@Suite struct NewBundleCommandTests {
    @Test func writesThePackageWiredToTheCloneItWasBuiltIn() throws {
        let dir = TempDir(); defer { dir.remove() }
        let r = run(TestPaths.widgethost, ["new-bundle", dir.path + "/Counter/"])
        #expect(r.status == 0, "\(r.stderr)")
        let manifest = FileManagerFree.read(dir.path + "/Counter/Package.swift") ?? ""
        #expect(manifest.contains(#".package(name: "widgethost", path: "\#(TestPaths.repoRoot)")"#), "\(manifest)")
        #expect(manifest.contains(#"name: "Counter","#) && manifest.contains(#"targets: ["Counter"]"#), "\(manifest)")
        #expect(FileManagerFree.exists(dir.path + "/Counter/Sources/Counter/Counter.swift"))
    }

    @Test func refusesAFolderThatIsNotEmptyAndANameThatIsNoModuleName() throws {
        let dir = TempDir(); defer { dir.remove() }
        _ = run("/bin/mkdir", ["-p", dir.path + "/Taken"])
        FileManagerFree.write(dir.path + "/Taken/notes.txt", "mine\n")
        let taken = run(TestPaths.widgethost, ["new-bundle", dir.path + "/Taken"])
        #expect(taken.status != 0 && taken.stderr.contains("\(dir.path)/Taken exists and is not empty: nothing written"), "\(taken.stderr)")
        #expect(!FileManagerFree.exists(dir.path + "/Taken/Package.swift"))

        let dashed = run(TestPaths.widgethost, ["new-bundle", dir.path + "/my-widgets"])
        #expect(dashed.status != 0 && dashed.stderr.contains("\"my-widgets\" is not a Swift module name") && dashed.stderr.contains("--name"),
                "\(dashed.stderr)")
        let named = run(TestPaths.widgethost, ["new-bundle", dir.path + "/my-widgets", "--name", "MyWidgets"])
        #expect(named.status == 0 && FileManagerFree.exists(dir.path + "/my-widgets/Sources/MyWidgets/MyWidgets.swift"), "\(named.stderr)")
    }

    /// The product the template's comment names for iOS code, `WidgetKit`, is one the SDK
    /// package has: a ported bundle's manifest resolves with it (and would not with a wrong name).
    @Test func aPortedBundleDependsOnTheWidgetKitProduct() throws {
        let dir = TempDir(); defer { dir.remove() }
        #expect(run(TestPaths.widgethost, ["new-bundle", dir.path + "/Port"]).status == 0)
        let manifest = try #require(FileManagerFree.read(dir.path + "/Port/Package.swift"))
        #expect(manifest.contains(#"import WidgetKit, SwiftUI, AppIntents): "WidgetKit""#), "\(manifest)")
        func resolves(_ product: String) -> ProcessResult {
            FileManagerFree.write(dir.path + "/Port/Package.swift",
                                  manifest.replacing(#"product(name: "OpenWidgetKit""#, with: #"product(name: "\#(product)""#))
            return run("/usr/bin/env", ["swift", "package", "--package-path", dir.path + "/Port", "show-dependencies"])
        }
        let ported = resolves("WidgetKit")
        #expect(ported.status == 0, "\(ported.stderr)")
        let wrong = resolves("NoSuchKit")
        #expect(wrong.status != 0 && wrong.stderr.contains("product 'NoSuchKit'"), "\(wrong.stderr)")
    }

    /// A widgethost outside any clone (an installed one) asks for --sdk, and --sdk must be a clone.
    @Test func aWidgethostInNoCloneAsksForTheSDK() throws {
        let dir = TempDir(); defer { dir.remove() }
        try #require(run("/bin/cp", [TestPaths.widgethost, dir.path + "/widgethost"]).status == 0)
        let alone = run(dir.path + "/widgethost", ["new-bundle", dir.path + "/B"])
        #expect(alone.status != 0 && alone.stderr.contains("is not inside a WidgetHost clone: pass --sdk"), "\(alone.stderr)")
        let wrong = run(dir.path + "/widgethost", ["new-bundle", dir.path + "/B", "--sdk", dir.path])
        #expect(wrong.status != 0 && wrong.stderr.contains("is not a WidgetHost clone"), "\(wrong.stderr)")
        let given = run(dir.path + "/widgethost", ["new-bundle", dir.path + "/B", "--sdk", TestPaths.repoRoot + "/Sources/.."])
        #expect(given.status == 0, "\(given.stderr)")
        #expect(FileManagerFree.read(dir.path + "/B/Package.swift")?.contains(#"path: "\#(TestPaths.repoRoot)")"#) == true)
    }
}
