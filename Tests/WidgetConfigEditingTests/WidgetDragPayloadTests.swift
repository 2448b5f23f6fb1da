import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetConfigEditing
import WidgetHostCore

/// `WidgetDragPayload`: what a gallery tile carries onto the desktop, read back from untrusted
/// bytes (issue 25 item 2, "where it is dropped"), and the drop's one edit: add, then move.
@Suite struct WidgetDragPayloadTests {
    func refused(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        refused(Array(text.utf8), sourceLocation: sourceLocation)
    }

    func refused(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> String {
        do {
            let p = try WidgetDragPayload(bytes: bytes)
            Issue.record("accepted: \(p)", sourceLocation: sourceLocation)
            return ""
        } catch {
            return error.description
        }
    }

    @Test func aTilesPayloadReadsBackAsTheSamePlacement() throws {
        let placement = WidgetPlacement(kind: "stats", family: "systemSmall", bundle: "Stats.so",
                                        parameters: [ParameterAssignment(name: "goal", value: .value(.number(12))),
                                                     ParameterAssignment(name: "statType", value: .value(.string("calories")))],
                                        outputs: ["files", "png"])
        let bytes = WidgetDragPayload(placement: placement).encoded()
        #expect(String(decoding: bytes, as: UTF8.self)
                == #"{"bundle":"Stats.so","family":"systemSmall","kind":"stats","outputs":["files","png"],"parameters":{"goal":12,"statType":"calories"}}"#)
        #expect(try WidgetDragPayload(bytes: bytes).placement == placement)
        let bare = try WidgetDragPayload(bytes: Array(#"{"kind":"habit","family":"systemSmall"}"#.utf8)).placement
        #expect(bare == WidgetPlacement(kind: "habit", family: "systemSmall"))
    }

    @Test func hostileBytesAreRefusedWithWhatIsWrong() {
        #expect(refused([UInt8](repeating: 0x20, count: WidgetDragPayload.maxBytes + 1)).contains("more than the 16384"))
        #expect(refused("{\"kind\":\"" + String(repeating: "x", count: 20_000) + "\"}").contains("more than"))
        #expect(refused("") == "the dropped widget is not JSON")
        #expect(refused("{\"kind\":") == "the dropped widget is not JSON")
        #expect(refused([0xFF, 0xFE, 0x00]) == "the dropped widget is not JSON")
        #expect(refused("file:///home/me/notes.txt") == "the dropped widget is not JSON")
        #expect(refused("[\"stats\"]") == "the dropped widget is not a JSON object")
        #expect(refused(#"{"family":"systemSmall"}"#) == "the dropped widget has no “kind”")
        #expect(refused(#"{"kind":"stats"}"#) == "the dropped widget has no “family”")
        #expect(refused(#"{"kind":"","family":"systemSmall"}"#).contains("“kind” is not a name"))
        #expect(refused(#"{"kind":7,"family":"systemSmall"}"#).contains("“kind” is not a name"))
        #expect(refused(#"{"kind":"stats","family":"systemSmall","id":"mine"}"#).contains("unknown field “id”"))
        #expect(refused(#"{"kind":"stats","family":"systemSmall","outputs":"png"}"#).contains("“outputs” is not a list"))
        #expect(refused(#"{"kind":"stats","family":"systemSmall","outputs":[1]}"#).contains("“outputs” is not a list"))
        #expect(refused(#"{"kind":"stats","family":"systemSmall","parameters":[]}"#).contains("“parameters” is not an object"))
    }

    /// The drop's edit: added, then before the widget the slot names; one result, the other
    /// widgets' lines untouched.
    @Test func aDropAddsTheWidgetBeforeTheOneItsSlotNames() throws {
        var editor = try EditFixtures.editor(EditFixtures.shipped)
        let payload = try WidgetDragPayload(bytes: Array(#"{"kind":"stats","family":"systemMedium","outputs":["png"]}"#.utf8))
        #expect(try payload.add(to: &editor, at: .before("habit-systemSmall")) == "stats-systemMedium")
        let text = editor.text.text
        #expect(text.contains(#""desktop": { "widgets": ["stats-systemMedium", "habit-systemSmall", "stats-systemSmall"], "columns": 2 }"#), "\(text)")
        #expect(text.contains(#"{ "kind": "stats", "family": "systemMedium", "outputs": ["png"] }"#), "\(text)")
        // No destination (dropped after the last widget): at the end, as a click adds it.
        var atEnd = try EditFixtures.editor(EditFixtures.shipped)
        try payload.add(to: &atEnd, at: nil)
        #expect(atEnd.text.text
                    .contains(#""widgets": ["habit-systemSmall", "stats-systemSmall", "stats-systemMedium"]"#))
    }

    /// An unknown kind, a family it lacks, or a slot naming no widget: the edit's own error, the
    /// editor (and so the file) as it was.
    @Test func aDropTheEditRefusesLeavesEverythingAsItWas() throws {
        for (json, destination, why) in [
            (#"{"kind":"weather","family":"systemSmall"}"#, GridDestination.before("habit-systemSmall"), "weather"),
            (#"{"kind":"habit","family":"systemLarge"}"#, .before("habit-systemSmall"), "does not support systemLarge"),
            (#"{"kind":"stats","family":"systemSmall","outputs":["png"]}"#, .before("gone-systemSmall"), "no widget \"gone-systemSmall\""),
        ] {
            var editor = try EditFixtures.editor(EditFixtures.shipped)
            let payload = try WidgetDragPayload(bytes: Array(json.utf8))
            #expect { try payload.add(to: &editor, at: destination) } throws: { "\($0)".contains(why) }
            #expect(editor.text.text == EditFixtures.shipped, "\(json)")
        }
    }
}
