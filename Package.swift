// swift-tools-version:6.0
// WidgetHost — WidgetKit for Linux. Module map and dependency rules: docs/architecture.md.
import PackageDescription

/// Example widget bundles: each is one `.so` (a dynamic library product) that statically links
/// the SDK. `scripts/install-plugins.sh` copies them into `Plugins/`.
let exampleBundles: [(product: String, target: String, path: String)] = [
    ("HabitWidget", "HabitWidget", "Examples/HabitWidget"),
    ("StatsWidget", "StatsWidget", "Examples/StatsWidget"),
    ("CardioBotWidgets", "CardioBotWidgets", "Examples/CardioBotWidgets"),
    ("ClockyWidget", "ClockyWidget", "Examples/ClockyWidget"),
    ("SystemWidgets", "SystemWidgets", "Examples/SystemWidgets"),
]

/// Misbehaving Swift plugins for the limits tests (Tests/IntegrationTests/HostileTests.swift):
/// built like the examples, never installed.
let fixtureBundles: [(product: String, target: String, path: String)] = [
    ("HostileSwiftWidget", "HostileSwiftWidget", "Tests/SwiftFixtures/HostileSwiftWidget"),
]

/// Keep a plugin's references to its own copy of the SDK bound to that copy, whatever the
/// loading executable exports (the host links the SDK too).
let pluginLinkerSettings: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "-Bsymbolic"])]

let package = Package(
    name: "WidgetHost",
    products: [
        .executable(name: "widgethost", targets: ["widgethost"]),
        .executable(name: "widgethost-desktop", targets: ["widgethost-desktop"]),
        .executable(name: "widgethost-render", targets: ["widgethost-render"]),
        .library(name: "OpenWidgetKit", targets: ["OpenWidgetKit"]),
    ] + (exampleBundles + fixtureBundles).map { .library(name: $0.product, type: .dynamic, targets: [$0.target]) },
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
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
        // Cairo and PangoCairo, for the render process only (DESIGN §11).
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "widgethost-pangocairo",  // pangocairo less -pthread: scripts/install-deps.sh
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]
        ),
        .target(name: "CWidgetPluginABI"),
        .target(name: "OpenWidgetKit", dependencies: ["CWidgetPluginABI"]),
        .target(name: "WidgetRendering", dependencies: ["OpenWidgetKit"]),
        .target(name: "WidgetLayout", dependencies: ["OpenWidgetKit", "WidgetRendering"]),
        .target(name: "WidgetGraphics", dependencies: ["CCairo", "WidgetLayout", "OpenWidgetKit", "WidgetRendering"]),
        .target(
            name: "WidgetHostCore",
            dependencies: [
                "OpenWidgetKit", "WidgetRendering", "CWidgetPluginABI",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "WidgetHostUV",
            dependencies: ["CLibUV", "WidgetHostCore", .product(name: "Logging", package: "swift-log")]
        ),
        .executableTarget(
            name: "widgethost",
            dependencies: [
                "OpenWidgetKit", "WidgetRendering", "WidgetHostCore", "WidgetHostUV", "CWidgetPluginABI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(name: "widgethost-desktop", dependencies: ["CGtk", "WidgetHostCore", "OpenWidgetKit"]),
        /// The render process: the only executable linking Cairo and Pango (DESIGN §11).
        .executableTarget(
            name: "widgethost-render",
            dependencies: ["WidgetGraphics", "WidgetRendering", "OpenWidgetKit"]
        ),
        .executableTarget(
            name: "PictureBench",
            dependencies: ["WidgetGraphics", "WidgetLayout", "WidgetHostCore", "OpenWidgetKit"],
            path: "Benchmarks/PictureBench"
        ),
        .testTarget(name: "OpenWidgetKitTests", dependencies: ["OpenWidgetKit"]),
        .testTarget(name: "WidgetRenderingTests", dependencies: ["WidgetRendering", "OpenWidgetKit"]),
        .testTarget(name: "WidgetLayoutTests", dependencies: ["WidgetLayout", "OpenWidgetKit"]),
        .testTarget(name: "WidgetGraphicsTests", dependencies: ["WidgetGraphics", "WidgetLayout", "OpenWidgetKit"], exclude: ["Fixtures"]),
        .testTarget(name: "WidgetHostCoreTests", dependencies: ["WidgetHostCore", "OpenWidgetKit"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["OpenWidgetKit", "WidgetRendering", "WidgetHostCore", "WidgetGraphics"],
            resources: [.copy("Fixtures")]
        ),
    ] + (exampleBundles + fixtureBundles).map {
        .target(name: $0.target, dependencies: ["OpenWidgetKit"], path: $0.path, linkerSettings: pluginLinkerSettings)
    },
    swiftLanguageModes: [.v6]
)
