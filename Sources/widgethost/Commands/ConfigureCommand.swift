import ArgumentParser
import WidgetConfigEditing

/// `widgethost configure ID NAME=VALUE…`: sets a widget's intent parameters in `config.json`,
/// each checked against what its bundle describes; a running host reloads that widget.
struct ConfigureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "configure",
        abstract: "Set a widget's intent parameters.",
        discussion: "An unknown name, a value outside an AppEnum's cases or of the wrong type is refused, naming what would be valid."
    )

    @Argument(help: "The widget's id.")
    var id: String

    @Argument(help: ArgumentHelp("Parameters to set.", valueName: "name=value"))
    var params: [String]

    @OptionGroup var options: ConfigEditOptions

    func validate() throws { _ = try ConfigEditOptions.assignments(params) }

    /// A running host lists its placed bundles' entities again first: a player started since is a valid value.
    func run() throws { _ = try options.apply(.configure(id: id, parameters: try ConfigEditOptions.assignments(params)), liveEntities: true) }
}
