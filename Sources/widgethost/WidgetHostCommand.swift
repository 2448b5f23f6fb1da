import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

/// The `widgethost` command line: one subcommand per file in `Commands/`.
struct WidgetHostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widgethost",
        abstract: "WidgetKit for Linux: host widget bundles and feed status bars.",
        version: VersionInfo.text,
        subcommands: subcommandList
    )
}

/// Registered subcommands. Each engineer adds theirs on its own line to keep merges trivial.
let subcommandList: [any ParsableCommand.Type] = [
    WorkerCommand.self,
    PreviewCommand.self,
    RunCommand.self,
    DefaultsCommand.self,
    ReloadCommand.self,
    ClickCommand.self,
    StatusCommand.self,
    FollowCommand.self,
    ValidateCommand.self,
    NewBundleCommand.self,
    AddCommand.self, RemoveCommand.self, ConfigureCommand.self, MoveCommand.self, GalleryCommand.self,
]

/// The entry point. `worker` runs `widgethost-worker` (`WorkerCommand`), and `run` — the daemon —
/// is parsed by hand (`LongOptions`), as the worker's arguments are: swift-argument-parser's
/// parsing was most of a worker's start-up CPU after the dynamic linker, and a third of a daemon's
/// instructions over its first 20 s (callgrind; issue 6), nearly all of it Swift conformance
/// lookups. `--help`, and any argument the hand parser does not accept, go through the full
/// command tree, which gives the usual help and error messages.
@main
enum Main {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let rest = Array(arguments.dropFirst())
        let wantsHelp = arguments.contains("--help") || arguments.contains("-h")
        if arguments.first == "worker", !wantsHelp { WorkerCommand.exec(arguments) }
        if arguments.first == "run", !wantsHelp, let status = RunCommand.runParsedByHand(rest) {
            exit(status)
        }
        WidgetHostCommand.main()
    }
}
