import ArgumentParser
import WidgetConfigEditing

/// `widgethost move ID --before OTHER | --to N`: changes a widget's place in the desktop grid's
/// order (`desktop.widgets`, written out from the desktop's current order when absent).
struct MoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "move", abstract: "Move a widget in the desktop grid's order.")

    @Argument(help: "The widget's id.")
    var id: String

    @Option(help: "Put it just before this widget.")
    var before: String?

    @Option(help: "Put it at this position (1 = first).")
    var to: Int?

    @OptionGroup var options: ConfigEditOptions

    func validate() throws {
        guard (before == nil) != (to == nil) else { throw ValidationError("give exactly one of --before OTHER and --to N") }
        if let to, to < 1 { throw ValidationError("--to counts from 1 (the first place)") }
    }

    func run() throws {
        _ = try options.apply(.move(id: id, to: before.map { .before($0) } ?? .position(to! - 1)))
    }
}
