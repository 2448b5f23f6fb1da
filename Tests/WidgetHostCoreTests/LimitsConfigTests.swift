import FoundationEssentials
import Logging
import OpenWidgetKit
import Testing
@testable import WidgetHostCore

/// `defaults.limits` and `bundles.<bundle>.limits` in config.json.
@Suite struct LimitsConfigTests {
    func parse(_ json: String) throws(ConfigError) -> HostConfig {
        try ConfigParser.parse(Data(json.utf8), baseDirectory: "/etc/wh", environment: ["HOME": "/home/u"])
    }

    @Test func defaultsAndPerBundleOverrides() throws {
        let c = try parse(#"""
        {"defaults": {"limits": {"reloadBudget": 40, "maxEntries": 50}},
         "bundles": {"org.example.sys": {"comment": "why", "limits": {"reloadBudget": 20000}},
                     "Sys.so": {"limits": {"maxEntries": 7}}}}
        """#)
        #expect(c.defaults.limits.reloadBudget == 40)
        #expect(c.limits(fileName: "Other.so", bundleId: "org.other").reloadBudget == 40)
        let sys = c.limits(fileName: "Sys.so", bundleId: "org.example.sys")
        #expect(sys.reloadBudget == 20000)
        #expect(sys.maxEntries == 7, "the file name is the more specific key")
        #expect(sys.workerMemoryMB == Limits().workerMemoryMB)
        #expect(try parse("{}").defaults.limits == Limits())
    }

    @Test(arguments: [
        (#"{"defaults": {"limits": {"reloadBudgte": 3}}}"#, "defaults.limits.reloadBudgte"),
        (#"{"defaults": {"limits": {"reloadBudget": 0}}}"#, "defaults.limits.reloadBudget"),
        (#"{"bundles": {"x.so": {"limits": {"maxEntries": "many"}}}}"#, "bundles.x.so.limits.maxEntries"),
        (#"{"bundles": {"x.so": {"budget": 3}}}"#, "bundles.x.so.budget"),
        (#"{"bundles": []}"#, "bundles"),
    ])
    func errorsNameTheJSONPath(json: String, path: String) {
        #expect(throws: ConfigError.self) { try parse(json) }
        do { _ = try parse(json) } catch { #expect(error.path == path, "\(error)") }
    }

    @Test func noBudgetNeverDefers() {
        var c = HostConfig(paths: .init(plugins: "/x", out: "/x", containers: "/x", state: "/x"))
        c.defaults.limits.reloadBudget = 1
        let spec = InstanceSpec(id: "w", bundleName: "b.so", kind: "k", family: .systemSmall)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let on = LimitsEnforcer(config: c, budgetEnabled: true, persistent: false, logger: Logger(label: "t"))
        #expect(on.admitReload(spec, now: now) == nil)
        #expect(on.admitReload(spec, now: now) == now + 86_400)
        let off = LimitsEnforcer(config: c, budgetEnabled: false, persistent: false, logger: Logger(label: "t"))
        for _ in 0..<10 { #expect(off.admitReload(spec, now: now) == nil) }
    }

    @Test func oversizedTimelinesAreRejected() {
        var l = Limits(); l.maxEntries = 2; l.maxTreeDepth = 2; l.maxTreeNodes = 3
        func entry(_ v: ViewNode) -> WireEntry { WireEntry(date: Date(timeIntervalSince1970: 0), view: v) }
        let leaf = ViewNode(kind: .text)
        var deep = ViewNode(kind: .vstack); var mid = ViewNode(kind: .vstack); mid.children = [leaf]; deep.children = [mid]
        var wide = ViewNode(kind: .hstack); wide.children = [leaf, leaf, leaf]
        #expect(LimitsEnforcer.violation(in: WireResponse(ok: true, entries: [entry(leaf), entry(leaf)]), limits: l) == nil)
        #expect(LimitsEnforcer.violation(in: WireResponse(ok: true, entries: [entry(leaf), entry(leaf), entry(leaf)]), limits: l)?.contains("maxEntries") == true)
        #expect(LimitsEnforcer.violation(in: WireResponse(ok: true, entries: [entry(deep)]), limits: l)?.contains("maxTreeDepth") == true)
        #expect(LimitsEnforcer.violation(in: WireResponse(ok: true, entries: [entry(wide)]), limits: l)?.contains("maxTreeNodes") == true)
    }
}
