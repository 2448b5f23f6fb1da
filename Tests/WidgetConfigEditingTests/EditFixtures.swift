import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetConfigEditing
import WidgetHostCore

/// Bundles and config texts the edit tests share.
enum EditFixtures {
    static let stats = WidgetDescriptor(
        kind: "stats", displayName: "Daily Stats", description: "Steps, calories or distance.",
        families: [.systemSmall, .systemMedium, .accessoryInline],
        parameters: [
            ParameterDescriptor(name: "statType", title: "Stat Type", type: "enum", defaultValue: .string("steps"),
                                options: [EnumOption(value: "steps", title: "Steps"), EnumOption(value: "calories", title: "Calories"),
                                          EnumOption(value: "distance", title: "Distance")]),
            ParameterDescriptor(name: "goal", title: "Goal", type: "int", defaultValue: .number(8)),
            ParameterDescriptor(name: "showUnit", title: "Show Unit", type: "bool", defaultValue: .bool(true)),
        ],
        configuration: "AppIntentConfiguration")
    static let habit = WidgetDescriptor(kind: "habit", displayName: "Habit", description: "", families: [.systemSmall, .accessoryInline],
                                        parameters: [], configuration: "StaticConfiguration")

    static func catalog() -> StaticWidgetCatalog {
        StaticWidgetCatalog([
            InstalledBundle(fileName: "Stats.so", manifest: BundleManifest(bundleId: "com.example.stats", sdkVersion: "0.1.0", abiVersion: 1,
                                                                          widgets: [stats], appGroups: [])),
            InstalledBundle(fileName: "Habit.so", manifest: BundleManifest(bundleId: "com.example.habit", sdkVersion: "0.1.0", abiVersion: 1,
                                                                          widgets: [habit], appGroups: [])),
        ])
    }

    /// Laid out as the shipped config.json is: two-space indentation, one line per widget.
    static let shipped = """
    {
      "comment": "hand-written",
      "paths": {
        "plugins": "Plugins",
        "out": "out"
      },
      "widgets": [
        { "kind": "habit", "family": "accessoryInline" },
        { "kind": "habit", "family": "systemSmall", "outputs": ["files", "png"] },
        { "kind": "stats", "family": "systemSmall", "parameters": { "statType": "calories" }, "outputs": ["png"] }
      ],
      "defaults": {
        "outputs": ["files", "stdout"],
        "limits": { "reloadBudget": 60 }
      },
      "desktop": { "widgets": ["habit-systemSmall", "stats-systemSmall"], "columns": 2 }
    }

    """

    static func editor(_ text: String, catalog: any WidgetCatalog = catalog()) throws -> ConfigEditor {
        try ConfigEditor(bytes: Array(text.utf8), baseDirectory: "/tmp/cfg", environment: ["HOME": "/tmp/home"], catalog: catalog)
    }

    /// `edited` is `original` with exactly `inserted` put in at one place: every other byte the same.
    static func expectOnlyInsertion(_ original: String, _ edited: String, _ inserted: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let o = Array(original.utf8), e = Array(edited.utf8), i = Array(inserted.utf8)
        let prefix = zip(o, e).prefix { $0 == $1 }.count
        #expect(e.count == o.count + i.count, "lengths: \(edited)", sourceLocation: sourceLocation)
        guard e.count == o.count + i.count else { return }
        // The insertion may start earlier than the first difference when it repeats what precedes it.
        let fits = (0...prefix).contains { at in
            Array(e[at..<at + i.count]) == i && Array(e[..<at]) == Array(o[..<at]) && Array(e[(at + i.count)...]) == Array(o[at...])
        }
        #expect(fits, "not a single insertion of \(inserted.debugDescription):\n\(edited)", sourceLocation: sourceLocation)
    }
}

/// A catalog that fails the test if asked: edits that must not need the bundles.
final class UnusedCatalog: WidgetCatalog {
    var problems: [String] { [] }
    func installedBundles() throws -> [InstalledBundle] {
        Issue.record("the catalog was asked")
        return []
    }
}
