import OpenWidgetKit
import Testing
import WidgetConfigEditing
import WidgetHostCore

/// The "Edit Widget" form's model (issue 25, item 3): a control per parameter type, the values
/// the widget runs with, and a `configure` edit of only what changed.
@Suite struct ParameterFormTests {
    @Test func eachParameterTypeGetsItsControlAndTheWidgetsCurrentValue() throws {
        let form = try ParameterForm(id: "stats-systemSmall", editor: EditFixtures.editor(EditFixtures.shipped))
        #expect(form.displayName == "Daily Stats" && form.kind == "stats" && form.family == .systemSmall)
        #expect(form.fields.map(\.name) == ["statType", "goal", "showUnit"])
        let statType = form.fields[0], goal = form.fields[1], showUnit = form.fields[2]
        #expect(statType.control == .menu(EditFixtures.stats.parameters[0].options!))
        #expect(statType.value == .string("calories"), "the config's value, not the default")
        #expect(statType.shown(statType.defaultValue!) == "Steps", "a default is shown by its display name")
        #expect(goal.control == .number(bounds: ParameterForm.intBounds, wholeNumbers: true))
        #expect(goal.value == .number(8) && goal.shown(goal.value) == "8")
        #expect(showUnit.control == .toggle && showUnit.value == .bool(true) && showUnit.shown(.bool(true)) == "On")
    }

    @Test func textDoubleAndParameterlessWidgets() {
        let widget = WidgetDescriptor(kind: "note", displayName: "", description: "", families: [.systemSmall], parameters: [
            ParameterDescriptor(name: "title", title: "", type: "string"),
            ParameterDescriptor(name: "ratio", title: "Ratio", type: "double", defaultValue: .number(0.5)),
            ParameterDescriptor(name: "mood", title: "Mood", type: "enum", options: [EnumOption(value: "calm", title: "")]),
        ], configuration: "AppIntentConfiguration")
        let form = ParameterForm(id: "n", widget: widget, family: .systemSmall, configured: [:])
        #expect(form.displayName == "note")
        #expect(form.fields[0].title == "title" && form.fields[0].control == .text && form.fields[0].value == .string(""))
        #expect(form.fields[1].control == .number(bounds: ParameterForm.numberBounds, wholeNumbers: false) && form.fields[1].value == .number(0.5))
        #expect(form.fields[2].value == .string("calm") && form.fields[2].shown(.string("calm")) == "calm", "no default: the first case")
        #expect(ParameterForm(id: "h", widget: EditFixtures.habit, family: .systemSmall, configured: [:]).fields.isEmpty)
    }

    @Test func onlyChangedValuesBecomeTheConfigureEdit() throws {
        var editor = try EditFixtures.editor(EditFixtures.shipped)
        let form = try ParameterForm(id: "stats-systemSmall", editor: editor)
        let unchanged: [String: ParameterInput] = ["statType": .value(.string("calories")), "goal": .value(.number(8)), "showUnit": .value(.bool(true))]
        #expect(form.changes(unchanged).isEmpty)
        var edited = unchanged
        edited["statType"] = .value(.string("steps"))
        let changes = form.changes(edited)
        #expect(changes == [ParameterAssignment(name: "statType", value: .value(.string("steps")))])
        try editor.apply(.configure(id: "stats-systemSmall", parameters: changes))
        #expect(editor.text.text.contains(#""parameters": { "statType": "steps" }"#), "\(editor.text.text)")
        #expect(!editor.text.text.contains("goal"), "an unchanged default is not written")
    }

    @Test func anUnknownIdNamesTheIdsThereAre() throws {
        #expect(throws: ConfigEditError.self) { try ParameterForm(id: "nope", editor: EditFixtures.editor(EditFixtures.shipped)) }
        do { _ = try ParameterForm(id: "nope", editor: EditFixtures.editor(EditFixtures.shipped)) } catch {
            #expect("\(error)".contains("no widget \"nope\"") && "\(error)".contains("stats-systemSmall"), "\(error)")
        }
    }
}
