import FoundationEssentials
import Logging
import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// Issue 24 item 6, the host's side of light/dark following the desktop: `picture.colorScheme`
/// `"system"` parses (a widget's own value overrides the defaults' either way), the instances
/// planned for it take the scheme the desktop surface reported and the others keep theirs, the
/// picture is drawn in the instance's scheme, and a `watch`'s `colorScheme` is validated.
@Suite struct DesktopColorSchemeSettingsTests {
    /// The config `json` says, its pictures under /tmp/out (as the accented mode's tests read it).
    func config(_ json: String) throws -> HostConfig { try AccentedPictureSettingsTests().config(json) }

    static let manifest = BundleManifest(bundleId: "t", sdkVersion: openWidgetKitVersion, abiVersion: 1,
                                         widgets: [WidgetDescriptor(kind: "k", displayName: "K", description: "", families: [.systemSmall],
                                                                    parameters: [], configuration: "StaticConfiguration")],
                                         appGroups: [])

    @Test func systemFollowsTheReportedSchemeAndExplicitSchemesStay() throws {
        let c = try config(#"""
        {"defaults": {"outputs": ["png"], "picture": {"colorScheme": "system"}},
         "widgets": [{"id": "follows", "kind": "k"}, {"id": "light", "kind": "k", "picture": {"colorScheme": "light"}},
                     {"id": "dark", "kind": "k", "picture": {"colorScheme": "dark"}}]}
        """#)
        #expect(c.pictureSettings(for: "follows").followsDesktop)
        #expect(!c.pictureSettings(for: "light").followsDesktop && !c.pictureSettings(for: "dark").followsDesktop)
        func schemes(_ desktop: ColorScheme?) -> [ColorScheme] {
            let plan = desktop.map { WidgetInstancePlanner.plan(config: c, bundles: [Self.manifest], bundleNames: ["t.so"], desktopColorScheme: $0) }
                ?? WidgetInstancePlanner.plan(config: c, bundles: [Self.manifest], bundleNames: ["t.so"])
            return plan.instances.map(\.colorScheme)
        }
        #expect(schemes(nil) == [.light, .light, .dark], "nothing reported: light")
        #expect(schemes(.dark) == [.dark, .light, .dark])
        #expect(schemes(.light) == [.light, .light, .dark])
        // The default ("light") does not follow.
        let plain = try config(#"{"widgets": [{"id": "w", "kind": "k"}]}"#)
        #expect(WidgetInstancePlanner.plan(config: plain, bundles: [Self.manifest], bundleNames: ["t.so"], desktopColorScheme: .dark)
            .instances.map(\.colorScheme) == [.light])
        // Without a widgets list, the defaults' "system" follows too.
        let all = try config(#"{"defaults": {"picture": {"colorScheme": "system"}, "families": ["systemSmall"]}}"#)
        #expect(WidgetInstancePlanner.plan(config: all, bundles: [Self.manifest], bundleNames: ["t.so"], desktopColorScheme: .dark)
            .instances.map(\.colorScheme) == [.dark])
    }

    @Test func anUnknownSchemeNamesSystemAmongTheChoices() {
        let json = #"{"widgets": [{"kind": "a", "picture": {"colorScheme": "auto"}}]}"#
        let errors = ConfigParser.check(Data(json.utf8), baseDirectory: "/tmp", environment: [:]).errors.map(\.description)
        #expect(errors.contains { $0.hasPrefix("widgets[0].picture.colorScheme: unknown colour scheme \"auto\" (one of: light, dark, system)") }, "\(errors)")
    }

    /// A "system" widget's picture is drawn in the scheme its views were evaluated in.
    @Test func thePictureIsDrawnInTheInstancesScheme() throws {
        let c = try config(#"{"defaults": {"outputs": ["png"], "picture": {"colorScheme": "system"}}, "widgets": [{"id": "w", "kind": "k"}]}"#)
        let loop = VirtualLoop(), launcher = FakeRenderLauncher()
        let outputs = PictureOutputs(config: c, loop: loop, launcher: launcher, logger: Logger(label: "test"))
        var text = ViewNode(kind: .text)
        text.text = "x"
        let dark = WidgetInstancePlanner.plan(config: c, bundles: [Self.manifest], bundleNames: ["t.so"], desktopColorScheme: .dark).instances[0]
        outputs.show(dark, view: text, now: loop.now, live: false)
        #expect(launcher.current.requests.last?.request.dark == true)
        launcher.current.answer()
        let light = WidgetInstancePlanner.plan(config: c, bundles: [Self.manifest], bundleNames: ["t.so"], desktopColorScheme: .light).instances[0]
        outputs.show(light, view: text, now: loop.now, live: false)
        #expect(launcher.current.requests.last?.request.dark == false)
    }

    @Test func aWatchSaysLightOrDarkOrNothing() throws {
        func watch(_ line: String) throws -> ColorScheme? {
            try ControlCodec.decode(ControlRequest.self, line: Array(line.utf8)).watchedColorScheme()
        }
        #expect(try watch(#"{"op":"watch"}"#) == nil)
        #expect(try watch(#"{"op":"watch","colorScheme":"dark"}"#) == .dark)
        #expect(try watch(#"{"op":"watch","colorScheme":"light"}"#) == .light)
        #expect(throws: ControlRequest.WatchRefused(description: #"unknown colour scheme "system" (one of: light, dark)"#)) {
            try watch(#"{"op":"watch","colorScheme":"system"}"#)
        }
        // Not a string at all: the line is no request (the connection is then served as one and answered).
        #expect(throws: (any Error).self) { try ControlCodec.decode(ControlRequest.self, line: Array(#"{"op":"watch","colorScheme":1}"#.utf8)) }
    }
}
