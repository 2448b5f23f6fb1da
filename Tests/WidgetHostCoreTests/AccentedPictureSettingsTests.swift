import FoundationEssentials
import Logging
import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// Issue 28 item 10, the daemon's side of the accented rendering mode: `picture.renderingMode`
/// and `picture.tint` parse (or are refused by their path), reach the worker as the timeline
/// request's `renderingMode` (through the instance) and the render process as the picture
/// request's `tint`.
@Suite struct AccentedPictureSettingsTests {
    func config(_ json: String) throws -> HostConfig {
        var c = try ConfigParser.parse(Data(json.utf8), baseDirectory: "/tmp", environment: ["HOME": "/tmp"])
        c.paths.out = "/tmp/out"
        return c
    }

    @Test func renderingModeAndTintParseWithDefaultsAndOverrides() throws {
        let c = try config(#"""
        {"defaults": {"picture": {"renderingMode": "accented", "tint": "#FF8800"}},
         "widgets": [{"kind": "a"}, {"kind": "b", "picture": {"renderingMode": "fullColor"}}, {"kind": "c", "picture": {"tint": "teal"}}]}
        """#)
        #expect(c.pictureSettings(for: "a").pictureTint == "#FF8800")
        #expect(c.pictureSettings(for: "a").requestedRenderingMode == "accented")
        #expect(c.pictureSettings(for: "b").pictureTint == nil)
        #expect(c.pictureSettings(for: "b").requestedRenderingMode == nil)
        #expect(c.pictureSettings(for: "c").pictureTint == "teal")
        // Nothing said: full colour; accented alone takes the fallback tint.
        #expect(PictureSettings().pictureTint == nil)
        #expect(try config(#"{"defaults": {"picture": {"renderingMode": "accented"}}}"#).defaults.picture.pictureTint == "blue")
    }

    @Test func aBadRenderingModeOrTintIsNamedByItsPath() {
        let json = #"""
        {"defaults": {"picture": {"renderingMode": "vibrant", "tint": "#12345"}},
         "widgets": [{"kind": "a", "picture": {"tint": "chartreuse"}}]}
        """#
        let errors = ConfigParser.check(Data(json.utf8), baseDirectory: "/tmp", environment: [:]).errors.map(\.description)
        #expect(errors.contains { $0.hasPrefix("defaults.picture.renderingMode: unknown rendering mode \"vibrant\" (one of: fullColor, accented)") })
        #expect(errors.contains { $0.hasPrefix("defaults.picture.tint: unknown colour \"#12345\"") })
        #expect(errors.contains { $0.hasPrefix("widgets[0].picture.tint: unknown colour \"chartreuse\"") })
        #expect(errors.count == 3, "\(errors)")
    }

    @Test func theInstanceAsksTheWorkerForTheAccentedModeAndTheRenderProcessGetsTheTint() throws {
        let c = try config(#"""
        {"defaults": {"outputs": ["png"], "picture": {"renderingMode": "accented", "tint": "orange"}},
         "widgets": [{"id": "a", "kind": "k"}, {"id": "b", "kind": "k", "picture": {"renderingMode": "fullColor"}}]}
        """#)
        let manifest = BundleManifest(bundleId: "t", sdkVersion: openWidgetKitVersion, abiVersion: 1,
                                      widgets: [WidgetDescriptor(kind: "k", displayName: "K", description: "", families: [.systemSmall],
                                                                 parameters: [], configuration: "StaticConfiguration")],
                                      appGroups: [])
        let plan = WidgetInstancePlanner.plan(config: c, bundles: [manifest], bundleNames: ["t.so"])
        #expect(plan.instances.map(\.renderingMode) == ["accented", nil])
        let loop = VirtualLoop(), launcher = FakeRenderLauncher()
        let outputs = PictureOutputs(config: c, loop: loop, launcher: launcher, logger: Logger(label: "test"))
        var text = ViewNode(kind: .text)
        text.text = "x"
        outputs.show(plan.instances[0], view: text, now: loop.now, live: false)
        #expect(launcher.current.requests.first?.request.tint == "orange")
        launcher.current.answer()
        outputs.show(plan.instances[1], view: text, now: loop.now, live: false)
        #expect(launcher.current.requests.last?.request.tint == nil)
    }
}
