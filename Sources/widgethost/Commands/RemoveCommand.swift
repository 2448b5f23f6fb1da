import ArgumentParser
import WidgetConfigEditing

/// `widgethost remove ID`: removes a widget from `config.json` (and from `desktop.widgets`); a
/// running host stops it and marks its outputs removed.
struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a widget from the configuration.")

    @Argument(help: "The widget's id.")
    var id: String

    @OptionGroup var options: ConfigEditOptions

    func run() throws { _ = try options.apply(.remove(id: id)) }
}
