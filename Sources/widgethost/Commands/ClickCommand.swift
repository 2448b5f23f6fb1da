import ArgumentParser
import WidgetHostCore

/// `widgethost click <id> [--button N] [--target NAME]`: a click on a widget, as a bar sends it.
struct ClickCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "click",
        abstract: "Click a widget: run a Button/Toggle intent, or open the entry's URL.",
        discussion: """
        With --target, runs the control whose action id or title is NAME (`widgethost status` lists \
        them). Without, button 1 runs the entry's first control; other buttons, or an entry with no \
        control, open its widgetURL/Link with defaults.opener (xdg-open).
        """
    )

    @Argument(help: "The widget instance id (the name of its output files).", completion: .custom(WidgetCompletion.ids))
    var id: String

    @Option(name: .long, help: "Mouse button: 1 left, 2 middle, 3 right, 4/5 scroll.")
    var button: Int = 1

    @Option(name: .long, help: "A control's action id or title.")
    var target: String?

    @OptionGroup var control: ControlOptions

    func run() throws {
        let r = try ControlClient.run(ControlRequest(op: .click, id: id, button: button, target: target), options: control)
        print(r.message ?? "ok")
    }
}
