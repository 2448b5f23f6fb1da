import CSandbox
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

// `widgethost-worker [worker] --plugin PATH …`: the process that hosts one bundle (DESIGN §3),
// started by the daemon, `validate` and `preview` (`WorkerExecutable`); `widgethost worker …`
// runs it too. An executable of its own, linked against the shared Swift runtime that Swift
// plugins load, so that `widgethost` itself can link the runtime statically (docs/performance.md).
// The leading `worker` is accepted and kept in the command line: `LeftoverWorkers` finds a killed
// host's strays by it.
_ = widgethost_set_process_name("widgethost-work")  // started from /proc/self/fd/N, it would be "N"
var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "worker" { arguments.removeFirst() }
do {
    WorkerMain.run(try WorkerOptions.parse(arguments))
} catch {
    // One line in the worker's failure format: the host reports a worker's last line.
    let message = "widgethost worker: \(error) (usage: widgethost-worker --plugin <plugin> [--max-frame <n>] "
        + "[--memory-mb <n>] [--max-response-bytes <n>] [--view-deadline-ms <n>] [--sandbox <spec>] [--settings-after-describe])\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(64)
}
