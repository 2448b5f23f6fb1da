import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

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
/// crash — is parsed by hand (`WorkerOptions.parse`): building swift-argument-parser's command
/// tree, or even the worker command's own parser, was most of a worker's start-up CPU after the
/// dynamic linker (callgrind, then perf; issue 6), and a worker's arguments come from the host,
/// not from a person. `worker --help` still goes through the full parser.
@main
enum Main {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "worker", !arguments.contains("--help"), !arguments.contains("-h") {
            do {
                WorkerMain.run(try WorkerOptions.parse(Array(arguments.dropFirst())))
            } catch {
                let message = "Error: \(error)\nUsage: widgethost worker --plugin <plugin> [--max-frame <n>] [--memory-mb <n>] "
                    + "[--max-response-bytes <n>] [--view-deadline-ms <n>]\n"
                _ = message.withCString { write(2, $0, strlen($0)) }
                exit(64)
            }
        }
        WidgetHostCommand.main()
    }
}
