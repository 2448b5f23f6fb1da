import ArgumentParser
import CLibUV
import Dispatch
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost worker --plugin PATH`: the process that hosts one bundle (DESIGN §3). Started by
/// `run` and `preview`; not meant to be run by hand.
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

    func run() throws {
        // Die with the parent, whatever kills it.
        _ = widgethost_set_parent_death_signal(SIGKILL)
        if getppid() == 1 { Glibc.exit(0) }
        // Keep a private copy of stdout for the protocol; fd 1 becomes stderr so a plugin's
        // print() cannot corrupt the frames.
        let protocolOut = fcntl(1, F_DUPFD_CLOEXEC, 3)
        guard protocolOut >= 0, dup2(2, 1) >= 0 else { WorkerServer.fail("cannot set up the protocol pipe") }
        signal(SIGPIPE, SIG_IGN)
        if memoryMb > 0 {
            // Before dlopen: a plugin that allocates without end gets malloc failures and dies
            // (Swift traps on allocation failure) instead of taking the machine's memory.
            // RLIMIT_DATA, not RLIMIT_AS: it counts what the worker actually allocates (heap,
            // private writable mappings), while a Swift process reserves far more address space
            // than it uses (measured, docs/limits.md: AS needs >= 96 MiB, DATA 48 MiB).
            let bytes = rlim_t(memoryMb) << 20
            var lim = rlimit(rlim_cur: bytes, rlim_max: bytes)
            if setrlimit(__rlimit_resource_t(RLIMIT_DATA.rawValue), &lim) != 0 { WorkerServer.fail("cannot set the memory limit: errno \(errno)") }
        }
        if viewDeadlineMs > 0 { setenv("WIDGETHOST_VIEW_DEADLINE_MS", String(viewDeadlineMs), 1) }
        let plugin: LoadedPlugin
        switch PluginLoader.load(path: self.plugin) {
        case .success(let p): plugin = p
        case .failure(let e): WorkerServer.fail("\(self.plugin): \(e.description)")
        }
        let server = WorkerServer(plugin: plugin, input: 0, output: protocolOut, maxFrame: maxFrame)
        server.maxResponse = maxResponseBytes
        server.serve()
        dispatchMain()
    }
}
