import FoundationEssentials
import Testing
@testable import WidgetHostCore

/// `ConfigParser.check`: every error of a config with its JSON path (what `validate` lists),
/// while `parse` keeps throwing the first.
@Suite struct ConfigCheckTests {
    let env = ["HOME": "/home/u"]

    @Test func everyErrorIsCollectedInDocumentOrder() {
        let json = """
        {"zzz": 1, "paths": {"out": "", "plugins": [], "x": 1},
         "defaults": {"families": ["systemSmall", "huge"], "pluginSettleMs": -1, "limits": {"maxTreeDepth": 0, "reloadBudget": "many"}},
         "widgets": [{"kind": "a"}, {"kind": "a"}, {"kind": 3, "family": "tiny"}, 7],
         "bundles": {"b.so": {"limits": {"workerMemoryMB": -1}, "other": true}}}
        """
        let r = ConfigParser.check(Data(json.utf8), baseDirectory: "/etc/wh", environment: env)
        #expect(r.errors.map(\.path) == [
            "zzz", "paths.x", "paths.plugins", "paths.out",
            "defaults.families[1]", "defaults.pluginSettleMs", "defaults.limits.maxTreeDepth", "defaults.limits.reloadBudget",
            "widgets[1]", "widgets[2].kind", "widgets[2].family", "widgets[3]",
            "bundles.b.so.other", "bundles.b.so.limits.workerMemoryMB",
        ])
        #expect(r.errors[8].reason == "duplicate widget id \"a\"")
        #expect(throws: r.errors[0]) { _ = try ConfigParser.parse(Data(json.utf8), baseDirectory: "/etc/wh", environment: env) }
    }

    @Test func aGoodConfigHasNoErrorsAndParsesTheSame() throws {
        let json = #"{"paths": {"plugins": "P"}, "widgets": [{"kind": "clock", "family": "accessoryInline"}], "bundles": {"x": {"limits": {"reloadBudget": 5}}}}"#
        let r = ConfigParser.check(Data(json.utf8), baseDirectory: "/etc/wh", environment: env)
        #expect(r.errors.isEmpty)
        #expect(try ConfigParser.parse(Data(json.utf8), baseDirectory: "/etc/wh", environment: env) == r.config)
        #expect(r.config.paths.plugins == "/etc/wh/P")
        #expect(r.config.widgets?.map(\.id) == ["clock-accessoryInline"])
    }

    @Test func invalidJSONIsOneError() {
        let r = ConfigParser.check(Data("{,".utf8), baseDirectory: "/", environment: env)
        #expect(r.errors.count == 1 && r.errors[0].reason.hasPrefix("not valid JSON"))
    }
}
