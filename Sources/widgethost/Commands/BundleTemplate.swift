/// The files `widgethost new-bundle` writes: a SwiftPM package whose one dynamic library is a
/// widget bundle, wired to the SDK at `sdkPath` under the package name `widgethost` (the
/// `name:` of a path dependency is what `.product(…, package:)` names, whatever the clone's
/// folder is called), and a starter widget — the example of docs/plugin-authoring.md, which a
/// test keeps equal to these files. Pure.
struct BundleTemplate {
    /// The module, product and library name (`lib<name>.so`): a Swift identifier.
    let name: String
    /// Absolute path of the WidgetHost clone (the SDK package).
    let sdkPath: String

    /// Whether `name` can be a Swift module name.
    static func isModuleName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }

    /// Path (relative to the package's folder) → contents, in the order they are written.
    var files: [(path: String, contents: String)] {
        [("Package.swift", manifest), ("Sources/\(name)/\(name).swift", Self.starterWidget), (".gitignore", "/.build/\n/out/\n")]
    }

    /// `s` as the inside of a Swift string literal.
    static func literal(_ s: String) -> String {
        var out = ""
        for c in s {
            if c == "\\" || c == "\"" { out.append("\\") }
            out.append(c)
        }
        return out
    }

    var manifest: String {
        """
        // swift-tools-version:6.0
        // A widget bundle for WidgetHost, made by `widgethost new-bundle` (docs/plugin-authoring.md).
        import PackageDescription

        let package = Package(
            name: "\(name)",
            products: [.library(name: "\(name)", type: .dynamic, targets: ["\(name)"])],
            // The SDK: a clone of WidgetHost, named "widgethost" here whatever its folder is called.
            dependencies: [.package(name: "widgethost", path: "\(Self.literal(sdkPath))")],
            targets: [
                .target(
                    name: "\(name)",
                    // iOS code as written (import WidgetKit, SwiftUI, AppIntents): "WidgetKit" (docs/porting.md).
                    dependencies: [.product(name: "OpenWidgetKit", package: "widgethost")],
                    linkerSettings: [.unsafeFlags(["-Xlinker", "-Bsymbolic"])],
                    plugins: [.plugin(name: "WidgetBundleSupport", package: "widgethost")]
                ),
            ],
            swiftLanguageModes: [.v5]
        )

        """
    }

    static let starterWidget = #"""
        import FoundationEssentials   // Date, URL, Calendar — or Foundation, at ~25 MB more per worker
        import OpenWidgetKit

        struct Entry: TimelineEntry { let date: Date; let count: Int }

        struct Provider: TimelineProvider {
            func placeholder(in context: Context) -> Entry { Entry(date: .now, count: 0) }
            func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) { completion(Entry(date: .now, count: 3)) }
            func getTimeline(in context: Context, completion: @escaping (Timeline<Entry>) -> Void) {
                let count = SharedDefaults(suiteName: "group.me.counter")?.integer(forKey: "count") ?? 0
                completion(Timeline(entries: [Entry(date: .now, count: count)], policy: .never))
            }
        }

        @main
        struct CounterWidget: Widget {
            static var widgetAppGroups: [String] { ["group.me.counter"] }   // the App Groups entitlement

            var body: some WidgetConfiguration {
                StaticConfiguration(kind: "counter", provider: Provider()) { entry in
                    Label("\(entry.count)", systemImage: "plus.circle.fill")
                        .containerBackground(.fill.tertiary, for: .widget)   // the home-screen background (iOS 17)
                }
                .configurationDisplayName("Counter")
                .supportedFamilies([.accessoryInline, .systemSmall])
            }
        }

        """#
}
