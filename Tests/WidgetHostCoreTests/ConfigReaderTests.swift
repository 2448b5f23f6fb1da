import FoundationEssentials
import Testing
@testable import OpenWidgetKit
@testable import WidgetHostCore

/// `config.json` is read by the direct JSON reader (`WireCodec.decodeJSONValue`), with
/// `JSONDecoder` as the reference: both must give the same `JSONValue` for every config, and
/// `JSONDecoder` keeps the verdict (and the message) on anything the direct reader declines.
@Suite struct ConfigReaderTests {
    static let repository = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The shipped config and every JSON example of docs/config.md (an example that shows one
    /// key, `"defaults": { … }`, as the object it goes in).
    static func shippedConfigs() throws -> [(name: String, text: String)] {
        var out = [("config.json", try String(contentsOf: repository.appending(path: "config.json"), encoding: .utf8))]
        let doc = try String(contentsOf: repository.appending(path: "docs/config.md"), encoding: .utf8)
        var block: [Substring]?
        for line in doc.split(separator: "\n", omittingEmptySubsequences: false) {
            if block == nil, line.hasPrefix("```json") { block = []; continue }
            if block != nil, line.hasPrefix("```") {
                let text = block!.joined(separator: "\n")
                out.append(("docs/config.md example \(out.count)", text.hasPrefix("\"") ? "{" + text + "}" : text))
                block = nil
                continue
            }
            block?.append(line)
        }
        return out
    }

    /// The configs the tests and the benchmark write, and the corners of JSON.
    static let writtenConfigs: [String] = [
        #"{"paths": {"plugins": "Plugins", "out": "/dev/shm/o", "containers": "containers", "state": "state"}, "widgets": [{"id": "clock", "kind": "clock", "family": "accessoryInline"}, {"id": "file0", "kind": "file0", "family": "accessoryInline"}], "defaults": {"outputs": ["files"], "minReloadSeconds": 0}}"#,
        #"{"widgets": null, "defaults": {"families": ["systemSmall"], "limits": {"reloadBudget": 1e3, "workerMemoryMB": 64.0}}}"#,
        #"{"widgets": [{"kind": "k", "parameters": {"n": -0, "f": 0.25, "big": 12345678901234567890, "e": 2E-3, "t": true, "z": null, "a": [[], {}, "x"]}}]}"#,
        #"{"comment": "caf\u00e9 \ud83d\ude00 \/ \" \\ \b\f\n\r\t é 👍🏽", "$schema": "s"}"#,
        #"{"a": 1, "a": 2}"#,
        #"{"limits": {"x": "inf", "y": "-inf"}}"#,
        " \n\t{ } \n",
        #"[1, "two", false, null]"#,
        #""just a string""#,
    ]

    @Test func theShippedConfigsAreReadDirectlyAndEqualJSONDecoder() throws {
        let configs = try Self.shippedConfigs()
        #expect(configs.count >= 3, "config.json and the examples of docs/config.md")
        for (name, text) in configs {
            let data = Data(text.utf8)
            let reference = try WireCodec.decode(JSONValue.self, from: data)
            #expect(try WireJSONReader.value(from: data) == reference, "\(name): read directly, without the fallback")
            #expect(try WireCodec.decodeJSONValue(data) == reference, "\(name)")
        }
    }

    @Test(arguments: writtenConfigs) func writtenConfigsAreReadDirectlyAndEqualJSONDecoder(_ text: String) throws {
        let data = Data(text.utf8)
        let reference = try WireCodec.decode(JSONValue.self, from: data)
        #expect(try WireJSONReader.value(from: data) == reference, "read directly, without the fallback")
        #expect(try WireCodec.decodeJSONValue(data) == reference)
    }

    /// What the direct reader declines goes to `JSONDecoder`: its value when it reads it, its
    /// error when it does not.
    @Test(arguments: [
        "{\"a\": 1e999}",            // out of Double's range: JSONDecoder's verdict
        "{\"a\": 01}", "{\"a\": .5}", "{\"a\": 1,}", "{\"a\" 1}", "{,", "[1] x", "{\"a\": tru}",
        "\u{FEFF}{\"a\": 1}",        // a byte order mark
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
    ])
    func declinedInputGetsJSONDecodersVerdict(_ text: String) {
        let data = Data(text.utf8)
        #expect((try? WireJSONReader.value(from: data)) == nil)
        let reference = Result { try WireCodec.decode(JSONValue.self, from: data) }
        let actual = Result { try WireCodec.decodeJSONValue(data) }
        switch (reference, actual) {
        case (.success(let r), .success(let a)): #expect(r == a)
        case (.failure, .failure): break
        default: Issue.record("JSONDecoder: \(reference), decodeJSONValue: \(actual)")
        }
    }

    /// The parsed config is the one `JSONDecoder`'s value gives, errors and their paths included.
    @Test func theParserGivesTheSameConfigAndErrorsAsBefore() throws {
        let bad = #"{"paths": {"out": 3}, "widgets": [{"kind": "a", "family": "huge"}], "defaults": {"limits": {"reloadBudget": "x"}}}"#
        let r = ConfigParser.check(Data(bad.utf8), baseDirectory: "/etc/wh", environment: ["HOME": "/home/u"])
        #expect(r.errors.map(\.path) == ["paths.out", "defaults.limits.reloadBudget", "widgets[0].family"])
        let shipped = try Self.shippedConfigs()[0].text
        let c = ConfigParser.check(Data(shipped.utf8), baseDirectory: "/etc/wh", environment: ["HOME": "/home/u"])
        #expect(c.errors.isEmpty)
        #expect(c.config.widgets?.count == 6)
        #expect(c.config.bundles["org.widgethost.system"]?.limits["reloadBudget"] == 20000)
    }
}
