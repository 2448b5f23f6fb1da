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

    func run() throws {
        // Die with the parent, whatever kills it.
        _ = widgethost_set_parent_death_signal(SIGKILL)
        if getppid() == 1 { Glibc.exit(0) }
        // Keep a private copy of stdout for the protocol; fd 1 becomes stderr so a plugin's
        // print() cannot corrupt the frames.
        let protocolOut = fcntl(1, F_DUPFD_CLOEXEC, 3)
        guard protocolOut >= 0, dup2(2, 1) >= 0 else { WorkerServer.fail("cannot set up the protocol pipe") }
        signal(SIGPIPE, SIG_IGN)
        let plugin: LoadedPlugin
        switch PluginLoader.load(path: self.plugin) {
        case .success(let p): plugin = p
        case .failure(let e): WorkerServer.fail("\(self.plugin): \(e.description)")
        }
        WorkerServer(plugin: plugin, input: 0, output: protocolOut, maxFrame: maxFrame).serve()
        dispatchMain()
    }
}
