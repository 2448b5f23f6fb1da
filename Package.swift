// swift-tools-version:6.0
// WidgetHost — WidgetKit for Linux. Module map and dependency rules: docs/architecture.md.
import CompilerPluginSupport
import PackageDescription
#if canImport(Glibc)
import Glibc
#endif

/// Example widget bundles: each is one `.so` (a dynamic library product) that statically links
/// the SDK. `scripts/install-plugins.sh` copies them into `Plugins/`.
let exampleBundles: [(product: String, target: String, path: String, extra: [Target.Dependency])] = [
    ("HabitWidget", "HabitWidget", "Examples/HabitWidget", []),
    ("StatsWidget", "StatsWidget", "Examples/StatsWidget", []),
    ("CardioBotWidgets", "CardioBotWidgets", "Examples/CardioBotWidgets", ["Combine"]),
    ("ClockyWidget", "ClockyWidget", "Examples/ClockyWidget", []),
    ("SystemWidgets", "SystemWidgets", "Examples/SystemWidgets", []),
    ("WeatherWidget", "WeatherWidget", "Examples/WeatherWidget", []),
    ("NetworkDiskWidgets", "NetworkDiskWidgetsEntry", "Examples/NetworkDiskWidgetsEntry", ["NetworkDisk"]),
    ("CalendarWidget", "CalendarWidget", "Examples/CalendarWidget", ["CICal"]),
    ("WorldClockWidget", "WorldClockWidget", "Examples/WorldClockWidget", []),
    ("BatteriesWidget", "BatteriesWidget", "Examples/BatteriesWidget", ["SessionBus"]),
    ("NowPlayingWidget", "NowPlayingWidget", "Examples/NowPlayingWidget", ["SessionBus"]),
]

/// Misbehaving Swift plugins for the limits tests (Tests/IntegrationTests/HostileTests.swift):
/// built like the examples, never installed.
let fixtureBundles: [(product: String, target: String, path: String, extra: [Target.Dependency])] = [
    ("HostileSwiftWidget", "HostileSwiftWidget", "Tests/SwiftFixtures/HostileSwiftWidget", []),
    ("AppleStyleWidget", "AppleStyleWidget", "Tests/SwiftFixtures/AppleStyleWidget", ["Combine", "WidgetPreviews"]),
    ("MainWidgetFixture", "MainWidgetFixture", "Tests/SwiftFixtures/MainWidgetFixture", []),
    ("XcodeStyleWidget", "XcodeStyleWidget", "Tests/SwiftFixtures/XcodeStyleWidget", ["WidgetKit", "SwiftUI", "AppIntents", "UIKit"]),
    ("IntentsWidget", "IntentsWidget", "Tests/SwiftFixtures/IntentsWidget", ["WidgetKit", "SwiftUI", "AppIntents", "Intents"]),
    // An asset catalogue and strings in two languages, compiled in by the build plugin.
    ("ResourcesWidget", "ResourcesWidget", "Tests/SwiftFixtures/ResourcesWidget", ["WidgetKit", "SwiftUI"]),
    ("BusProbeWidget", "BusProbeWidget", "Tests/SwiftFixtures/BusProbeWidget", ["SessionBus"]),
]

/// The modules with Apple's names (`import WidgetKit`, `import SwiftUI`, `import AppIntents`,
/// `import Intents`, and `import UIKit` for `UIColor` and `UIImage`): each re-exports
/// `AppleFrameworks` — the SDK, `#Preview` and full Foundation — so iOS widget code compiles
/// with its imports as written. A bundle that wants
/// no ICU in its worker imports `OpenWidgetKit` instead (docs/porting.md, docs/performance.md).
let appleModuleNames = ["WidgetKit", "SwiftUI", "AppIntents", "Intents", "UIKit"]

/// The corpus (issue 27): widget extensions of our own written as for iOS in Xcode — `@main`
/// bundle, widget files, `AppIntent.swift`, asset catalogue, `Localizable.strings`, Apple's
/// imports — built untouched; the build plugin compiles their catalogues and string tables, as
/// Xcode's build does (Tests/SwiftFixtures/Corpus, docs/porting.md "The corpus").
let corpusBundles: [(product: String, target: String, path: String, extra: [Target.Dependency])] =
    ["Hydration", "Errands", "StepCount", "WeeklyActivity", "Batteries", "MonthCalendar", "CoinTicker", "CityWeather", "PlantCare"].map {
        ($0, $0, "Tests/SwiftFixtures/Corpus/" + $0, ["WidgetKit", "SwiftUI", "AppIntents", "Intents"])
    }

/// Bundles built as Xcode builds an extension, without the `WidgetBundleSupport` build plugin:
/// code that imports Apple's module names gets one `CGFloat` from them (Sources/AppleFrameworks).
let bundlesWithoutBuildPlugin: Set<String> = ["XcodeStyleWidget"]

/// A bundle folder's resources — `*.xcassets`, `*.lproj`, `*.xcstrings`, `*.strings`,
/// `*.stringsdict` at its top — which the `WidgetBundleSupport` build plugin compiles into the
/// `.so`: excluded from SwiftPM's own resource handling (which would want `defaultLocalization`
/// and put them beside the build, where a sandboxed worker cannot see them).
func bundleResources(in path: String) -> [String] {
    var names: [String] = []
    #if canImport(Glibc)
    guard let dir = opendir(Context.packageDirectory + "/" + path) else { return [] }
    defer { closedir(dir) }
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if [".xcassets", ".lproj", ".xcstrings", ".strings", ".stringsdict"].contains(where: { name.hasSuffix($0) }) { names.append(name) }
    }
    #endif
    return names.sorted()
}

/// Keep a plugin's references to its own copy of the SDK bound to that copy, whatever the
/// loading executable exports (the host links the SDK too).
let pluginLinkerSettings: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "-Bsymbolic"])]

/// Widget code is Swift 5 code, as widget extensions are: `static var title: LocalizedStringResource`
/// in intents compiles as written. The project's own code stays in Swift 6 mode.
let pluginSwiftSettings: [SwiftSetting] = [.swiftLanguageMode(.v5)]

/// Metadata of generic types with concrete arguments (`[WireRequest: Data]`, `Result<…>`) through
/// direct accessors instead of mangled names: a mangled name is demangled at its first use and
/// each of its conformances looked up by scanning every conformance record of the process —
/// 2 M of a cold host start's 11 M instructions (callgrind, issue 16). For the modules on the
/// daemon's and the worker's start-up path.
let directMetadataAccess: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])]

/// The toolchain's own swift-syntax, `<toolchain>/usr/lib/swift/host`: the modules and libraries the
/// compiler's own macros (`@Observable`, `#expect`) are built against. The `#Preview` macro links
/// these instead of building the swift-syntax package, which cost a cold release build ~9 minutes
/// on 2 cores (docs/performance.md, issue 22). Found next to the `PackageDescription` library this
/// manifest runs with, so it is the toolchain that builds the package, whoever depends on it.
let toolchainHostLibraries: String = {
    #if canImport(Glibc)
    if let maps = fopen("/proc/self/maps", "r") {
        defer { fclose(maps) }
        var line = [CChar](repeating: 0, count: 4096)
        let suffix = "/pm/ManifestAPI/libPackageDescription.so"
        while fgets(&line, Int32(line.count), maps) != nil {
            let end = line.firstIndex { $0 == 0 || $0 == 10 } ?? line.endIndex  // NUL or newline
            let text = String(decoding: line[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let slash = text.firstIndex(of: "/"), text.hasSuffix(suffix) {
                return String(text[slash...].dropLast(suffix.count)) + "/host"
            }
        }
    }
    #endif
    return "/usr/lib/swift/host"
}()

/// Compiler and linker flags for a module that imports the toolchain's swift-syntax modules.
let toolchainSwiftSyntax: (swift: [SwiftSetting], linker: [LinkerSetting]) = (
    [.unsafeFlags(["-I", toolchainHostLibraries])],
    [.unsafeFlags(["-L", toolchainHostLibraries, "-Xlinker", "-rpath", "-Xlinker", toolchainHostLibraries,
                   "-lSwiftSyntax", "-lSwiftSyntaxMacros", "-lSwiftCompilerPluginMessageHandling"])]
)

let package = Package(
    name: "WidgetHost",
    products: [
        .executable(name: "widgethost", targets: ["widgethost"]),
        .executable(name: "widgethost-worker", targets: ["widgethost-worker"]),
        .executable(name: "widgethost-desktop", targets: ["widgethost-desktop"]),
        .executable(name: "widgethost-desktop-gtk", targets: ["widgethost-desktop-gtk"]),
        .executable(name: "widgethost-render", targets: ["widgethost-render"]),
        .executable(name: "widgethost-edit", targets: ["widgethost-edit"]),
        .library(name: "OpenWidgetKit", targets: ["OpenWidgetKit"]),
        /// `import Combine` for widget code (OpenCombine under Apple's name); only bundles that use it link it.
        .library(name: "Combine", targets: ["Combine"]),
        /// `#Preview` for widgets (a macro over the toolchain's swift-syntax): only bundles with previews link it.
        .library(name: "WidgetPreviews", targets: ["WidgetPreviews"]),
        /// A session-bus client for widget code (libdbus-1): only bundles that declare bus names link it.
        .library(name: "SessionBus", targets: ["SessionBus"]),
        /// iOS widget code as written: `import WidgetKit`, `import SwiftUI`, `import AppIntents`,
        /// `import Intents`, `import UIKit` — all five modules from this one product (the SDK, `#Preview`, Foundation).
        .library(name: "WidgetKit", targets: appleModuleNames),
        /// Every bundle target uses it: one `CGFloat` per bundle, so files that import Foundation compile.
        .plugin(name: "WidgetBundleSupport", targets: ["WidgetBundleSupport"]),
    ] + (exampleBundles + fixtureBundles + corpusBundles).map { .library(name: $0.product, type: .dynamic, targets: [$0.target]) },
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibUV",
            pkgConfig: "libuv",
            providers: [.apt(["libuv1-dev"])]
        ),
        // GTK 3 and gtk-layer-shell, for widgethost-desktop only: the daemon never links them.
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "widgethost-gtk",  // gtk-layer-shell-0 less -pthread: scripts/install-deps.sh
            providers: [.apt(["libgtk-3-dev", "libgtk-layer-shell-dev"])]
        ),
        // Xlib, Xext (Shape, MIT-SHM) and RandR, for the lean desktop surface's X11 backend only.
        .systemLibrary(
            name: "CX11",
            pkgConfig: "x11",
            providers: [.apt(["libx11-dev", "libxext-dev", "libxrandr-dev", "libxfixes-dev"])]
        ),
        // libdbus-1, for the lean desktop surface's AT-SPI bridge and the SDK's SessionBus: the daemon never links it.
        .systemLibrary(
            name: "CICal",  // libical 3, for the calendar bundle only
            pkgConfig: "libical",
            providers: [.apt(["libical-dev"])]
        ),
        .systemLibrary(
            name: "CDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        // Cairo and PangoCairo, for the render process only (DESIGN §11).
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "widgethost-pangocairo",  // pangocairo less -pthread: scripts/install-deps.sh
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]
        ),
        // libjpeg-turbo, for WidgetGraphics only: the drawing processes decode JPEG images; the daemon never links it.
        .systemLibrary(name: "CJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg-dev"])]),
        // libwayland-client, for widgethost-desktop's Wayland backend only: the daemon never links it.
        .systemLibrary(
            name: "CWaylandClient",
            pkgConfig: "wayland-client",
            providers: [.apt(["libwayland-dev"])]
        ),
        // The Wayland protocols beyond the core one (xdg-shell, xdg-output, fractional scale,
        // viewporter, wlr layer-shell and virtual pointer): wayland-scanner's code, committed and
        // regenerated by scripts/generate-wayland-protocols.sh (XML: Protocols/README.md).
        .target(name: "CWayland", dependencies: ["CWaylandClient"]),
        .target(name: "CWidgetPluginABI"),
        // Landlock system calls for the worker sandbox (docs/limits.md "Sandbox").
        .target(name: "CSandbox"),
        // The daemon's bus-signal connection, libdbus-1 loaded with dlopen only when a bundle declares a signal.
        .target(name: "CBusLoader", linkerSettings: [.linkedLibrary("dl")]),
        // renameat2(RENAME_EXCHANGE) and write leases, for outputs rewritten in place (OutputDirectory).
        .target(name: "CLinuxFiles"),
        /// The SDK's weak `widget_plugin_entry_v1` that reaches a `@main` bundle (C: it calls the plugin's `main`).
        .target(name: "CWidgetMainEntry", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "OpenWidgetKit", dependencies: ["CWidgetPluginABI", "CWidgetMainEntry"], swiftSettings: directMetadataAccess),
        .target(name: "WidgetRendering", dependencies: ["OpenWidgetKit"], swiftSettings: directMetadataAccess),
        .target(name: "WidgetLayout", dependencies: ["OpenWidgetKit", "WidgetRendering"]),
        .target(name: "WidgetGraphics", dependencies: ["CCairo", "CJPEG", "WidgetLayout", "OpenWidgetKit", "WidgetRendering"]),
        .macro(name: "WidgetPreviewMacros",
               swiftSettings: toolchainSwiftSyntax.swift, linkerSettings: toolchainSwiftSyntax.linker),
        .target(name: "WidgetPreviews", dependencies: ["OpenWidgetKit", "WidgetPreviewMacros"]),
        // Widget code's session-bus client, reached through the worker's filtering proxy (docs/limits.md "D-Bus").
        .target(name: "SessionBus", dependencies: ["CDBus"]),
        // What Apple's module names bring: the SDK, `#Preview` and full Foundation (ICU).
        .target(name: "AppleFrameworks", dependencies: ["OpenWidgetKit", "WidgetPreviews"]),
    ] + appleModuleNames.map { .target(name: $0, dependencies: ["AppleFrameworks"]) } + [
        .plugin(name: "WidgetBundleSupport", capability: .buildTool(), dependencies: ["widget-resource-compiler"],
                path: "PackagePlugins/WidgetBundleSupport"),
        /// The build plugin's tool: a bundle's Assets.xcassets and string tables → generated Swift in its `.so`.
        .executableTarget(name: "widget-resource-compiler", dependencies: ["OpenWidgetKit"], path: "Sources/WidgetResourceCompiler"),
        // Not OpenCombineDispatch: see Sources/Combine/DispatchQueue+Scheduler.swift.
        .target(name: "Combine", dependencies: [.product(name: "OpenCombine", package: "OpenCombine")]),
        .target(
            name: "WidgetHostCore",
            dependencies: [
                "OpenWidgetKit", "WidgetRendering", "CWidgetPluginABI", "CSandbox", "CLinuxFiles",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: directMetadataAccess
        ),
        // Edits of config.json (add, remove, configure, move) shared by the CLI and a graphical editor.
        .target(name: "WidgetConfigEditing", dependencies: ["WidgetHostCore", "OpenWidgetKit"]),
        .target(
            name: "WidgetHostUV",
            dependencies: ["CLibUV", "CBusLoader", "WidgetHostCore", .product(name: "Logging", package: "swift-log")],
            swiftSettings: directMetadataAccess
        ),
        // The daemon and CLI link the Swift runtime statically: the dynamic linker's work at every
        // start falls from 7.6 M to 2.7 M instructions (docs/performance.md). It loads no Swift
        // code of others; workers, which do, are `widgethost-worker` and share the runtime's
        // libraries with the plugins. lld: gold warns about `mktemp` in the static Foundation.
        // `--no-export-dynamic`: nothing loads into it, and the runtime's start-up `dladdr` walks
        // every exported symbol (8 197 of them).
        .executableTarget(
            name: "widgethost",
            dependencies: [
                "OpenWidgetKit", "WidgetRendering", "WidgetHostCore", "WidgetHostUV", "CWidgetPluginABI", "CSandbox",
                "WidgetConfigEditing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: directMetadataAccess + [.unsafeFlags(["-static-stdlib"])],
            linkerSettings: [.unsafeFlags(["-static-stdlib", "-use-ld=lld", "-l_FoundationCollections", "-l_FoundationCShims", "-Xlinker", "--no-export-dynamic"])]
        ),
        /// The worker process (one per bundle): loads a plugin, answers the host (DESIGN §3).
        .executableTarget(
            name: "widgethost-worker",
            dependencies: ["WidgetHostCore", "OpenWidgetKit", "CWidgetPluginABI", "CSandbox"],
            swiftSettings: directMetadataAccess
        ),
        // The desktop surface's drawing and the display backends' contract: lays out and draws the
        // widgets the host streams, with damage and hit testing; no toolkit (docs/architecture.md).
        .target(name: "WidgetDesktopScene", dependencies: ["WidgetGraphics", "WidgetLayout", "WidgetRendering", "WidgetHostCore", "OpenWidgetKit"]),
        .target(name: "CSurfaceLoop"),
        // The lean desktop surface's loop, view stream client and actions, display-kind free.
        .target(name: "WidgetDesktopSurface", dependencies: ["CSurfaceLoop", "WidgetDesktopScene", "WidgetGraphics", "CCairo", "WidgetLayout", "WidgetRendering", "WidgetConfigEditing", "WidgetHostCore", "OpenWidgetKit"]),
        // The lean surface's accessible tree on the AT-SPI bus (libdbus-1; docs/desktop.md "Accessibility").
        .target(name: "WidgetDesktopAccessibility", dependencies: ["CDBus", "WidgetDesktopSurface", "WidgetDesktopScene", "WidgetHostCore"]),
        .executableTarget(name: "widgethost-desktop", dependencies: ["CX11", "CWayland", "WidgetDesktopAccessibility", "WidgetDesktopSurface", "WidgetConfigEditing", "WidgetDesktopScene", "WidgetRendering", "WidgetHostCore", "OpenWidgetKit"]),
        // The GTK surface, `widgethost-desktop --gtk`, kept while the lean one is new.
        .executableTarget(name: "widgethost-desktop-gtk", dependencies: ["CGtk", "WidgetDesktopSurface", "WidgetDesktopScene", "WidgetConfigEditing", "WidgetHostCore", "OpenWidgetKit"]),
        /// The editor, started on demand: "Add Widget" gallery and "Edit Widget" forms in GTK 3, previews
        /// drawn in-process with WidgetGraphics, config.json written only through WidgetConfigEditing.
        .executableTarget(name: "widgethost-edit", dependencies: ["CGtk", "WidgetGraphics", "WidgetConfigEditing", "WidgetHostCore", "OpenWidgetKit"],
                         linkerSettings: [.linkedLibrary("atk-1.0")]),  // accessible names (CGtk links GTK, not ATK)
        /// The render process: the only process of the daemon's linking Cairo and Pango (DESIGN §11).
        .executableTarget(
            name: "widgethost-render",
            dependencies: ["WidgetGraphics", "WidgetLayout", "WidgetRendering", "WidgetHostCore", "OpenWidgetKit", "CSandbox"]
        ),
        .executableTarget(
            name: "PictureBench",
            dependencies: ["WidgetGraphics", "WidgetLayout", "WidgetHostCore", "OpenWidgetKit"],
            path: "Benchmarks/PictureBench"
        ),
        .testTarget(name: "OpenWidgetKitTests", dependencies: ["OpenWidgetKit"]),
        .testTarget(name: "AppleFrameworksTests", dependencies: ["WidgetKit"], swiftSettings: pluginSwiftSettings),
        .testTarget(name: "WidgetRenderingTests", dependencies: ["WidgetRendering", "OpenWidgetKit"]),
        .testTarget(name: "WidgetLayoutTests", dependencies: ["WidgetLayout", "OpenWidgetKit"]),
        .testTarget(name: "WidgetGraphicsTests", dependencies: ["WidgetGraphics", "WidgetLayout", "OpenWidgetKit"], exclude: ["Fixtures"]),
        .testTarget(name: "WidgetHostCoreTests", dependencies: ["WidgetHostCore", "OpenWidgetKit"]),
        .testTarget(name: "WidgetDesktopSceneTests", dependencies: ["WidgetDesktopScene", "WidgetHostCore", "OpenWidgetKit", "WidgetGraphics", "WidgetLayout"]),
        .testTarget(name: "WidgetDesktopSurfaceTests", dependencies: ["WidgetDesktopSurface", "WidgetDesktopScene", "WidgetHostCore", "OpenWidgetKit"]),
        .testTarget(name: "WidgetDesktopAccessibilityTests", dependencies: ["CDBus", "WidgetDesktopAccessibility", "WidgetDesktopScene", "WidgetHostCore"]),
        // The Network and Disk bundle's code apart from its entry point, so its tests can link it.
        .target(name: "NetworkDisk", dependencies: ["OpenWidgetKit", "SessionBus"], path: "Examples/NetworkDiskWidgets", swiftSettings: pluginSwiftSettings),
        .testTarget(name: "NetworkDiskWidgetsTests", dependencies: ["NetworkDisk", "SessionBus"]),
        .testTarget(name: "CalendarWidgetTests", dependencies: ["CalendarWidget"], swiftSettings: pluginSwiftSettings),
        .testTarget(name: "WidgetConfigEditingTests", dependencies: ["WidgetConfigEditing", "WidgetHostCore", "OpenWidgetKit"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["OpenWidgetKit", "WidgetRendering", "WidgetHostCore", "WidgetGraphics", "Combine", "WidgetDesktopScene", "WidgetLayout", "CDBus"],
            resources: [.copy("Fixtures")]
        ),
    ] + (exampleBundles + fixtureBundles + corpusBundles).map {
        .target(name: $0.target, dependencies: ["OpenWidgetKit"] + $0.extra, path: $0.path,
                exclude: bundleResources(in: $0.path),
                swiftSettings: pluginSwiftSettings, linkerSettings: pluginLinkerSettings,
                plugins: bundlesWithoutBuildPlugin.contains($0.target) ? [] : ["WidgetBundleSupport"])
    },
    swiftLanguageModes: [.v6]
)
