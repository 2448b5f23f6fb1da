import ArgumentParser

/// The `widgethost` command line: one subcommand per file in `Commands/`.
struct WidgetHostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widgethost",
        abstract: "WidgetKit for Linux: host widget bundles and feed status bars.",
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
]

/// The entry point. `worker` — started for every bundle, on every plugin change and after every
/// crash — is parsed on its own: building the whole command tree first costs about as much
/// start-up CPU as the rest of a worker's start (measured with callgrind), and a worker's
/// arguments come from the host, not from a person.
@main
enum Main {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == WorkerCommand.configuration.commandName {
            do {
                let worker = try WorkerCommand.parse(Array(arguments.dropFirst()))
                try worker.run()
                WorkerCommand.exit()
            } catch {
                WorkerCommand.exit(withError: error)
            }
        }
        WidgetHostCommand.main()
    }
}
