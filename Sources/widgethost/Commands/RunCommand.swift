import ArgumentParser
import Logging
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost run`: the long-running host (DESIGN §3, §5, §7, §8).
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Host the widget bundles in the plugin folder and write their entries to files and stdout.",
        discussion: """
        Reads config.json (--config, else $XDG_CONFIG_HOME/widgethost/config.json, else defaults), \
        applies it again whenever it changes or on SIGHUP, and stops cleanly on SIGTERM or SIGINT. \
        One daemon runs per configuration: exit status 2 for an invalid config, 3 when another \
        daemon already runs on it. Under systemd (Type=notify) it reports readiness and feeds the \
        watchdog (docs/operations.md).
        """
    )

    enum StdoutFormat: String, ExpressibleByArgument, CaseIterable { case none, jsonl, i3bar }
    enum SortOrder: String, ExpressibleByArgument, CaseIterable { case id, relevance }

    @Option(name: .long, help: "The config file (default: $XDG_CONFIG_HOME/widgethost/config.json).")
    var config: String?

    @Option(name: .long, help: "What to write on stdout: none, jsonl (one JSON object per update) or i3bar (the i3bar/swaybar protocol; clicks are read from stdin).")
    var stdout: StdoutFormat = .none

    @Option(name: .long, help: "Order of the i3bar blocks: id, or relevance (the current entry's, highest first).")
    var sort: SortOrder = .id
    @Flag(name: .long, help: "Do not ration reloads with the daily reload budget (for widget authors).")
    var noBudget = false

    @Flag(name: .long, help: "Use Nerd Font glyphs for SF Symbols (for bars whose font is a Nerd Font).")
    var nerdFont = false

    @Option(name: .long, help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("unknown log level \"\(logLevel)\" (trace, debug, info, notice, warning, error, critical)")
        }
    }

    func run() throws {
        let status = Self.start(config: config, stdout: stdout, sort: sort, noBudget: noBudget, nerdFont: nerdFont, logLevel: logLevel)
        if status != 0 { throw ExitCode(status) }
    }

    /// Runs the daemon with `arguments` parsed without swift-argument-parser (`LongOptions`;
    /// see `Main`) and returns its exit status; nil, having run nothing, when the arguments are
    /// not valid: the caller then lets ArgumentParser report them.
    static func runParsedByHand(_ arguments: [String]) -> Int32? {
        guard let o = try? LongOptions(arguments, valued: ["config", "stdout", "sort", "log-level"], flags: ["no-budget", "nerd-font"]),
              let stdout = try? o.choice("stdout", absent: StdoutFormat.none),
              let sort = try? o.choice("sort", absent: SortOrder.id),
              Logger.Level(rawValue: o.string("log-level") ?? "info") != nil else { return nil }
        return start(config: o.string("config"), stdout: stdout, sort: sort, noBudget: o.flag("no-budget"),
                     nerdFont: o.flag("nerd-font"), logLevel: o.string("log-level") ?? "info")
    }

    /// Runs the daemon until it stops; its exit status.
    static func start(config: String?, stdout: StdoutFormat, sort: SortOrder, noBudget: Bool, nerdFont: Bool = false,
                      logLevel: String) -> Int32 {
        StandardDescriptors.reopenClosedOnDevNull()
        let level = Logger.Level(rawValue: logLevel) ?? .info
        if JournalLogHandler.stderrIsJournal(ProcessEnvironment.current()) {
            LoggingSystem.bootstrap { _ in JournalLogHandler(logLevel: level) }
        } else {
            LoggingSystem.bootstrap { label in
                var h = StreamLogHandler.standardError(label: label)
                h.logLevel = level
                return h
            }
        }
        let logger = Logger(label: "widgethost")
        let source = ConfigSource(explicitPath: config, forDaemon: true)
        // The same verdict and wording as `validate` (`ConfigSource.check`), every error listed.
        let checked = source.check()
        guard checked.errors.isEmpty else {
            for e in checked.errors { logger.critical("invalid configuration: \(checked.file): \(e)") }
            return 2
        }
        let initial = checked.config
        let lock: InstanceLock
        switch InstanceLock.acquire(stateDirectory: initial.paths.state) {
        case .success(let l): lock = l
        case .failure(let e):
            logger.critical("\(e)")
            return 3
        }
        defer { withExtendedLifetime(lock) {} }
        let runtime = DaemonRuntime(source: source, config: initial, stdout: stdout, sortByRelevance: sort == .relevance,
                                    budget: !noBudget, glyphs: nerdFont ? .nerdFont : .unicode, logger: logger)
        return runtime.run()
    }
}
