import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetConfigEditing
import WidgetHostCore

/// The edits on text (issue 25): each changes only what it must, and bad input is refused with
/// what would be valid, the text untouched.
@Suite struct ConfigEditorTests {
    let shipped = EditFixtures.shipped

    @Test func addAppendsOneLineInTheNeighboursStyleAndNothingElse() throws {
        var e = try EditFixtures.editor(shipped)
        let id = try e.apply(.add(WidgetPlacement(kind: "stats", family: "systemMedium",
                                                  parameters: [ParameterAssignment(name: "statType", value: .text("distance"))])))
        #expect(id == "stats-systemMedium")
        EditFixtures.expectOnlyInsertion(shipped, e.text.text,
                                         ",\n    { \"kind\": \"stats\", \"family\": \"systemMedium\", \"parameters\": { \"statType\": \"distance\" } }")
        #expect(e.config.widgets?.last?.parameters == ["statType": .string("distance")])
    }

    @Test func addCopiesACompactStyleToo() throws {
        let compact = #"{"widgets":[{"kind":"habit","family":"systemSmall"}]}"#
        var e = try EditFixtures.editor(compact)
        #expect(try e.apply(.add(WidgetPlacement(kind: "habit", family: "systemSmall"))) == "habit-systemSmall-2")
        #expect(e.text.text == #"{"widgets":[{"kind":"habit","family":"systemSmall"},{"kind":"habit","family":"systemSmall","id":"habit-systemSmall-2"}]}"#)
    }

    @Test func aPictureWidgetJoinsTheDesktopList() throws {
        var e = try EditFixtures.editor(shipped)
        try e.apply(.add(WidgetPlacement(kind: "habit", family: "systemSmall", id: "my habit", outputs: ["png"])))
        let expected = shipped
            .replacing("\"outputs\": [\"png\"] }\n  ]",
                                  with: "\"outputs\": [\"png\"] },\n    { \"kind\": \"habit\", \"family\": \"systemSmall\", \"id\": \"my_habit\", \"outputs\": [\"png\"] }\n  ]")
            .replacing("\"stats-systemSmall\"], \"columns\"", with: "\"stats-systemSmall\", \"my_habit\"], \"columns\"")
        #expect(e.text.text == expected)
    }

    @Test func removeUndoesAddByteForByteAndLeavesTheDesktopList() throws {
        var e = try EditFixtures.editor(shipped)
        let id = try e.apply(.add(WidgetPlacement(kind: "stats", family: "accessoryInline", outputs: ["files", "png"])))
        #expect(e.text.text != shipped)
        try e.apply(.remove(id: id))
        #expect(e.text.text == shipped)
    }

    @Test func removeTakesTheWidgetOffTheDesktopToo() throws {
        var e = try EditFixtures.editor(shipped)
        try e.apply(.remove(id: "stats-systemSmall"))
        let expected = shipped
            .replacing(",\n    { \"kind\": \"stats\", \"family\": \"systemSmall\", \"parameters\": { \"statType\": \"calories\" }, \"outputs\": [\"png\"] }", with: "")
            .replacing("[\"habit-systemSmall\", \"stats-systemSmall\"]", with: "[\"habit-systemSmall\"]")
        #expect(e.text.text == expected)
        // The first entry too: the next one takes its place and indentation.
        try e.apply(.remove(id: "habit-accessoryInline"))
        #expect(e.text.text.contains("\"widgets\": [\n    { \"kind\": \"habit\", \"family\": \"systemSmall\", \"outputs\": [\"files\", \"png\"] }\n  ],"), "\(e.text.text)")
    }

    /// A widget with a monitor of its own (`desktop.outputs`) loses that entry too; without it
    /// the host would refuse the file (a monitor for a widget that is not there).
    @Test func removeTakesTheWidgetsMonitorToo() throws {
        let text = shipped.replacing("\"columns\"", with: "\"outputs\": { \"stats-systemSmall\": \"HDMI-A-1\", \"habit-systemSmall\": \"all\" }, \"columns\"")
        var e = try EditFixtures.editor(text)
        #expect(e.config.desktop?.outputs == ["stats-systemSmall": "HDMI-A-1", "habit-systemSmall": "all"])
        try e.apply(.remove(id: "stats-systemSmall"))
        #expect(e.text.text.contains("\"outputs\": { \"habit-systemSmall\": \"all\" }, \"columns\""), "\(e.text.text)")
        #expect(e.config.desktop?.outputs == ["habit-systemSmall": "all"])
    }

    @Test func configureReplacesAndAddsParametersInPlace() throws {
        var e = try EditFixtures.editor(shipped)
        try e.apply(.configure(id: "stats-systemSmall", parameters: [ParameterAssignment(name: "statType", value: .text("steps")),
                                                                      ParameterAssignment(name: "goal", value: .text("10"))]))
        #expect(e.text.text == shipped.replacing("{ \"statType\": \"calories\" }", with: "{ \"statType\": \"steps\", \"goal\": 10 }"))
        // A widget with no parameters object gets one.
        var f = try EditFixtures.editor(#"{"widgets": [{"kind": "stats", "family": "systemSmall"}]}"#)
        try f.apply(.configure(id: "stats-systemSmall", parameters: [ParameterAssignment(name: "showUnit", value: .value(.bool(false)))]))
        #expect(f.text.text == #"{"widgets": [{"kind": "stats", "family": "systemSmall", "parameters": { "showUnit": false }}]}"#)
    }

    @Test func moveReordersTheDesktopListOnly() throws {
        var e = try EditFixtures.editor(shipped)
        try e.apply(.move(id: "stats-systemSmall", to: .before("habit-systemSmall")))
        let swapped = shipped.replacing("[\"habit-systemSmall\", \"stats-systemSmall\"]", with: "[\"stats-systemSmall\", \"habit-systemSmall\"]")
        #expect(e.text.text == swapped)
        try e.apply(.move(id: "stats-systemSmall", to: .position(1)))
        #expect(e.text.text == shipped)
    }

    @Test func moveWritesOutTheDesktopsOrderWhenThereIsNoList() throws {
        let text = """
        {
          "widgets": [
            { "kind": "stats", "family": "systemSmall", "outputs": ["png"] },
            { "kind": "habit", "family": "accessoryInline" },
            { "kind": "habit", "family": "systemSmall", "outputs": ["png"] }
          ]
        }
        """
        var e = try EditFixtures.editor(text, catalog: UnusedCatalog())
        try e.apply(.move(id: "stats-systemSmall", to: .position(0)))
        // The desktop showed the pictures by id: habit, then stats.
        #expect(e.text.text == text.dropLast(2) + ",\n  \"desktop\": { \"widgets\": [\"stats-systemSmall\", \"habit-systemSmall\"] }\n}")
        #expect(throws: ConfigEditError("habit-accessoryInline is not on the desktop: it has no png output (the grid: habit-systemSmall, stats-systemSmall)")) {
            var f = try EditFixtures.editor(text, catalog: UnusedCatalog())
            try f.apply(.move(id: "habit-accessoryInline", to: .position(0)))
        }
    }

    @Test func aConfigWithoutAListGetsTheInstancesTheHostRunsWrittenOut() throws {
        let text = "{\n  \"paths\": { \"plugins\": \"Plugins\" },\n  \"defaults\": { \"families\": [\"systemSmall\", \"accessoryInline\"] }\n}\n"
        var e = try EditFixtures.editor(text)
        #expect(try e.apply(.add(WidgetPlacement(kind: "stats", family: "systemSmall"))) == "stats-systemSmall-2")
        #expect(e.text.text == """
        {
          "paths": { "plugins": "Plugins" },
          "defaults": { "families": ["systemSmall", "accessoryInline"] },
          "widgets": [
            { "kind": "habit", "family": "systemSmall" },
            { "kind": "habit", "family": "accessoryInline" },
            { "kind": "stats", "family": "systemSmall" },
            { "kind": "stats", "family": "accessoryInline" },
            { "kind": "stats", "family": "systemSmall", "id": "stats-systemSmall-2" }
          ]
        }

        """)
        // `"widgets": null` is replaced in place.
        var n = try EditFixtures.editor("{\"widgets\": null, \"comment\": \"x\"}")
        try n.apply(.remove(id: "stats-systemMedium"))
        #expect(n.config.widgets?.map(\.id) == ["habit-systemSmall", "habit-accessoryInline", "stats-systemSmall", "stats-accessoryInline"])
        #expect(n.text.text.hasSuffix("\n], \"comment\": \"x\"}"))
    }

    @Test func badInputIsRefusedNamingWhatIsValidAndChangesNothing() throws {
        let cases: [(ConfigEdit, String)] = [
            (.add(WidgetPlacement(kind: "stat", family: "systemSmall")),
             "no installed bundle declares kind \"stat\" (installed kinds: habit, stats)"),
            (.add(WidgetPlacement(kind: "stats", family: "systemLarge")),
             "stats does not support systemLarge (it supports: systemSmall, systemMedium, accessoryInline)"),
            (.add(WidgetPlacement(kind: "stats", family: "huge")),
             "unknown family \"huge\" (stats supports: systemSmall, systemMedium, accessoryInline)"),
            (.add(WidgetPlacement(kind: "stats", family: "systemSmall", parameters: [ParameterAssignment(name: "colour", value: .text("red"))])),
             "stats has no parameter \"colour\" (its parameters: statType (one of: steps (Steps), calories (Calories), distance (Distance)), goal (a whole number), showUnit (true or false))"),
            (.add(WidgetPlacement(kind: "stats", family: "systemSmall", parameters: [ParameterAssignment(name: "statType", value: .text("sleep"))])),
             "stats parameter statType expects one of: steps (Steps), calories (Calories), distance (Distance), got 'sleep'"),
            (.add(WidgetPlacement(kind: "stats", family: "systemSmall", parameters: [ParameterAssignment(name: "goal", value: .text("8.5"))])),
             "stats parameter goal expects a whole number, got '8.5'"),
            (.add(WidgetPlacement(kind: "stats", family: "systemSmall", id: "habit-systemSmall")),
             "a widget with id \"habit-systemSmall\" exists already (ids must be unique: choose another)"),
            (.add(WidgetPlacement(kind: "stats", family: "systemMedium", outputs: ["gif"])),
             "unknown output \"gif\" (one of: files, txt, json, stdout, png, svg)"),
            (.configure(id: "stats-systemSmall", parameters: [ParameterAssignment(name: "showUnit", value: .value(.string("yes")))]),
             "stats parameter showUnit expects true or false, got 'yes'"),
            (.configure(id: "habit-systemSmall", parameters: [ParameterAssignment(name: "goal", value: .text("3"))]),
             "habit has no parameter \"goal\" (it has no parameters)"),
            (.remove(id: "clock"), "no widget \"clock\" in the config (ids: habit-accessoryInline, habit-systemSmall, stats-systemSmall)"),
            (.move(id: "habit-systemSmall", to: .before("clock")),
             "no widget \"clock\" in the desktop grid (its order: habit-systemSmall, stats-systemSmall)"),
            (.move(id: "habit-systemSmall", to: .position(2)),
             "position 3 is outside the desktop grid (1–2: habit-systemSmall, stats-systemSmall)"),
        ]
        for (edit, message) in cases {
            var e = try EditFixtures.editor(shipped)
            #expect(throws: ConfigEditError(message), "\(edit)") { try e.apply(edit) }
            #expect(e.text.text == shipped)
        }
    }

    @Test func aRefusedEditLeavesAWrittenOutListUnwritten() throws {
        var e = try EditFixtures.editor("{}")
        #expect(throws: ConfigEditError.self) { try e.apply(.configure(id: "stats-systemSmall", parameters: [ParameterAssignment(name: "goal", value: .text("x"))])) }
        #expect(e.text.text == "{}")
        #expect(e.config.widgets == nil)
    }

    @Test func aConfigTheHostRefusesIsNotEdited() {
        #expect(throws: ConfigEditError("the config has errors already, fix them first: widgets[0].family: unknown family \"huge\" (one of: systemSmall, systemMedium, systemLarge, systemExtraLarge, accessoryCircular, accessoryRectangular, accessoryInline)")) {
            try EditFixtures.editor(#"{"widgets": [{"kind": "stats", "family": "huge"}]}"#)
        }
        #expect(throws: ConfigEditError("the file is empty, which the host refuses (write {} for every default)")) { try EditFixtures.editor("\n") }
    }
}
