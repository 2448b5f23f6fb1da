import ArgumentParser

/// The `widgethost` command line: one subcommand per file in `Commands/`.
@main
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
