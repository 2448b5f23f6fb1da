import ArgumentParser
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost worker --plugin PATH`: runs `widgethost-worker` (`WorkerExecutable`), the process
/// that hosts one bundle (DESIGN §3), with the same arguments. The host starts that executable
/// itself; this command is its `--help` and a way to run it by hand.
struct WorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Load one plugin and answer framed requests on stdin/stdout (internal).",
        shouldDisplay: false
    )

    @Option(help: "The plugin shared object to load.")
    var plugin: String

    @Option(help: "Largest request frame accepted, in bytes.")
    var maxFrame: Int = 64 << 20

    @Option(help: "Data cap (RLIMIT_DATA: heap and private writable mappings) in MiB, applied before the plugin is loaded; 0 = none.")
    var memoryMb: Int = 0

    @Option(help: "Largest response passed to the host, in bytes; a larger one is answered with an error.")
    var maxResponseBytes: Int = Int.max

    @Option(help: "Render-time limit of one view evaluation, in milliseconds; 0 = none (the SDK enforces it).")
    var viewDeadlineMs: Int = 0

    @Option(help: "Landlock sandbox applied before the plugin is loaded: 'network' or 'no-network', then one read-write path per line.")
    var sandbox: String?

    @Flag(help: "Answer the first request (describe) in a child under these settings, then read the serving settings as a frame.")
    var settingsAfterDescribe = false

    func run() throws {
        WorkerCommand.exec(Array(CommandLine.arguments.dropFirst()))
    }

    /// Replaces this process with the worker executable, given `arguments` (`worker …`).
    static func exec(_ arguments: [String]) -> Never {
        let path = WorkerExecutable.path()
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, argv)
        let message = "widgethost worker: cannot run \(path): \(String(cString: strerror(errno)))\n"
        _ = message.withCString { write(2, $0, strlen($0)) }
        Glibc.exit(69)
    }
}
