import ArgumentParser
import WidgetConfigEditing

/// `widgethost add KIND --family F [--id ID] [--param K=V …]`: places a widget in `config.json`
/// (a running host starts it at once) and prints its id.
struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a widget to the configuration and print its id.",
        discussion: """
        The kind must be declared by a bundle in the config's plugin folder, in a family it \
        supports; each --param is checked against the parameters the bundle describes \
        (widgethost gallery lists them). The file is changed in place (other keys, their order \
        and indentation stay) and re-read by a running host.
        """
    )

    @Argument(help: "The widget kind, as its bundle declares it.")
    var kind: String

    @Option(help: "The family: systemSmall, systemMedium, systemLarge, systemExtraLarge, accessoryCircular, accessoryRectangular or accessoryInline.")
    var family: String

    @Option(help: "The id (default: <kind>-<family>, with -2, -3… when taken). Names the output files.")
    var id: String?

    @Option(name: .customLong("param"), help: ArgumentHelp("An intent parameter (repeatable).", valueName: "name=value"))
    var params: [String] = []

    @Option(help: "The bundle (bundle id or .so file name) when several declare the kind.")
    var bundle: String?

    @Option(name: .customLong("output"), help: ArgumentHelp("An output instead of defaults.outputs (repeatable): files, txt, json, stdout, png, svg.", valueName: "output"))
    var outputs: [String] = []

    @OptionGroup var options: ConfigEditOptions

    func validate() throws { _ = try ConfigEditOptions.assignments(params) }

    func run() throws {
        let placement = WidgetPlacement(kind: kind, family: family, id: id, bundle: bundle,
                                        parameters: try ConfigEditOptions.assignments(params), outputs: outputs.isEmpty ? nil : outputs)
        print(try options.apply(.add(placement)))
    }
}
