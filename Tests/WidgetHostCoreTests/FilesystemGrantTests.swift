import FoundationEssentials
import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// Read-only paths a bundle declares or the person grants (`FilesystemGrant`): where each lands,
/// what is refused, and how they reach the worker (`WorkerSandbox.Spec`'s `--sandbox` argument)
/// and the config (`bundles.<id>.filesystems`).
@Suite struct FilesystemGrantTests {
    let env = ["HOME": "/home/u", "XDG_CONFIG_HOME": "/cfg"]

    @Test func eachPrefixLandsWhereFlatpakPutsIt() throws {
        func path(_ d: String) -> String? { try? FilesystemGrant.resolve(d, environment: env).get() }
        #expect(path("xdg-data/calendars:ro") == "/home/u/.local/share/calendars")
        #expect(path("xdg-config/khal:ro") == "/cfg/khal")
        #expect(path("xdg-cache/x:ro") == "/home/u/.cache/x")
        #expect(path("~/.calendars:ro") == "/home/u/.calendars")
        #expect(path("~/./Sync//team/:ro") == "/home/u/Sync/team")
        #expect(path("/srv/calendars:ro") == "/srv/calendars")
    }

    @Test(arguments: [
        ("~/.calendars", "only read-only access exists"), ("~/.calendars:rw", "only read-only access exists"),
        ("calendars:ro", "start it with"), ("~/../etc:ro", "\"..\" is not allowed"), ("/:ro", "the whole of / or $HOME"),
        ("~/:ro", "the whole of / or $HOME"), ("/srv:ro", "overlaps the host's own folder /srv/widgethost/state"),
        ("/srv/widgethost/state/bundles:ro", "overlaps the host's own folder /srv/widgethost/state"),
    ])
    func refusedWithTheReason(declaration: String, reason: String) {
        let r = FilesystemGrant.resolve(declaration, environment: env, protected: ["/srv/widgethost/state"])
        guard case .failure(let refusal) = r else { Issue.record("\(declaration) was accepted: \(r)"); return }
        #expect(refusal.description.contains(reason), "\(refusal)")
    }

    @Test func theSpecCarriesDeclaredAndGrantedPathsToTheWorker() throws {
        let manifest = BundleManifest(bundleId: "org.widgethost.calendar", sdkVersion: "", abiVersion: 1, widgets: [], appGroups: ["group.cal"],
                                      filesystems: ["xdg-data/calendars:ro", "~/.calendars:ro", "/:ro", "/state/x:ro"])
        let spec = WorkerSandbox.Spec(manifest: manifest, containersRoot: "/c", isolate: true, granted: ["/srv/team:ro", "~/.calendars:ro"],
                                      environment: env, protected: ["/state"])
        #expect(spec.readWrite == ["/c/group.cal"])
        #expect(spec.readOnly == ["/home/u/.local/share/calendars", "/home/u/.calendars", "/srv/team"])
        #expect(spec.granted == ["/home/u/.calendars", "/srv/team"])
        #expect(spec.argument == "no-network isolate\n/c/group.cal\nro /home/u/.local/share/calendars\ngrant /home/u/.calendars\ngrant /srv/team")
        #expect(WorkerSandbox.Spec.parse(spec.argument) == spec)
        #expect(WorkerSandbox.Spec.parse("no-network\nro relative") == nil)
        // A bundle that declares nothing gets nothing.
        let plain = WorkerSandbox.Spec(manifest: BundleManifest(bundleId: "b", sdkVersion: "", abiVersion: 1, widgets: [], appGroups: []),
                                       containersRoot: "/c", environment: env)
        #expect(plain.readOnly.isEmpty && plain.argument == "no-network")
    }

    @Test func theConfigGrantsByBundleAndRejectsABadGrantWithItsPath() throws {
        let (config, problems) = ConfigParser.check(Data(#"{"bundles": {"org.widgethost.calendar": {"filesystems": ["~/Sync/team:ro"]}, "Cal.so": {"filesystems": ["/srv/x:ro"]}}}"#.utf8),
                                                    baseDirectory: "/cfg/widgethost", environment: env)
        #expect(problems.isEmpty, "\(problems)")
        #expect(config.grantedFilesystems(fileName: "Cal.so", bundleId: "org.widgethost.calendar") == ["~/Sync/team:ro", "/srv/x:ro"])
        let bad = ConfigParser.check(Data(#"{"bundles": {"org.widgethost.calendar": {"filesystems": ["~/Sync/team:rw"]}}}"#.utf8),
                                     baseDirectory: "/cfg/widgethost", environment: env).errors
        #expect(bad.map(\.description).contains { $0.contains("bundles.org.widgethost.calendar.filesystems[0]") && $0.contains("end it in :ro") }, "\(bad)")
    }
}
