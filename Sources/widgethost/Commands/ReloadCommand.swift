import ArgumentParser
import WidgetHostCore

/// `widgethost reload [kind]`: `WidgetCenter.shared.reloadTimelines(ofKind:)`, or with no kind
/// `reloadAllTimelines()`, asked of the running host through its control socket.
struct ReloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Ask the running host for new timelines of a widget kind (or of every widget)."
    )

    @Argument(help: "The widget kind (default: every widget).", completion: .custom(WidgetCompletion.kinds))
    var kind: String?

    @OptionGroup var control: ControlOptions

    func run() throws {
        let r = try ControlClient.run(ControlRequest(op: .reload, kind: kind), options: control)
        print(r.message ?? "ok")
    }
}
