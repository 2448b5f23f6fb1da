import ArgumentParser
import FoundationEssentials
import WidgetHostCore
import WidgetHostUV
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost follow <id> --format …`: the current rendering of one widget, then a line per
/// change — for waybar `custom` (`exec`), polybar `tail = true`, i3blocks `interval=persist`,
/// eww `deflisten`. Driven by inotify on the output directory (libuv fs_event; the host renames
/// `<id>.json` into place), no polling. Exits 0 when the reader closes the pipe (EPIPE).
struct FollowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow",
        abstract: "Print a widget's rendering, then one line per change (for waybar, polybar, i3blocks, eww)."
    )

    @Argument(help: "The widget instance id (the name of its output files).", completion: .custom(WidgetCompletion.ids))
    var id: String

    @Option(name: .long, help: "text, waybar, pango, json or polybar.",
            completion: .list(FollowFormatter.Format.allCases.map(\.rawValue)))
    var format: String = "text"

    @Option(name: .long, help: "The output directory (default: paths.out of the config).")
    var out: String?

    @Option(name: .long, help: "The config file the host runs with (to find its output directory).")
    var config: String?

    func validate() throws {
        guard FollowFormatter.Format(rawValue: format) != nil else {
            throw ValidationError("unknown format \"\(format)\" (text, waybar, pango, json, polybar)")
        }
    }

    func run() throws {
        let fmt = FollowFormatter.Format(rawValue: format) ?? .text
        let dir: String
        if let out { dir = out } else {
            switch ConfigSource(explicitPath: config).load() {
            case .success(let c): dir = c.paths.out
            case .failure(let e): throw ValidationError("cannot read the configuration: \(e)")
            }
        }
        ignoreSIGPIPE()
        let follower = Follower(directory: dir, id: id, format: fmt)
        throw ExitCode(follower.run())
    }
}

/// The loop of `follow`. Loop thread only.
final class Follower {
    private let loop = UVLoop()
    private let directory: String
    private let id: String
    private let format: FollowFormatter.Format
    private var watcher: UVFileWatcher?
    private var hangup: UVPoll?
    private var last: String?
    private var status: Int32 = 0

    init(directory: String, id: String, format: FollowFormatter.Format) {
        self.directory = directory; self.id = id; self.format = format
    }

    func run() -> Int32 {
        try? FileIO.makeDirectories(directory)
        watcher = UVFileWatcher(loop: loop, path: directory) { [weak self] name, _, _ in
            guard let self, name == nil || name == self.id + ".json" else { return }
            self.emitIfChanged()
        }
        if watcher == nil {
            ClientOutput.error("widgethost follow: cannot watch \(directory)")
            return 1
        }
        // The reader closing the pipe shows as POLLERR on fd 1 (a pipe's write end is never
        // readable), so `follow` exits at once rather than at the next change. libuv makes the
        // descriptor non-blocking; the writes here stay blocking.
        let flags = fcntl(1, F_GETFL)
        hangup = UVPoll(loop: loop, fd: 1) { [weak self] status in if status < 0 { self?.stop() } }
        if flags >= 0 { _ = fcntl(1, F_SETFL, flags) }
        emitIfChanged()
        loop.run()
        loop.close()
        return status
    }

    private func emitIfChanged() {
        guard let data = FileIO.read(directory + "/" + id + ".json"), !data.isEmpty,
              let o = try? JSONDecoder().decode(WidgetOutput.self, from: data) else { return }
        let line = FollowFormatter.line(o, format: format)
        guard line != last else { return }
        last = line
        if !ClientOutput.writeLine(line) { stop() }
    }

    private func stop() {
        watcher?.close(); watcher = nil
        hangup?.close(); hangup = nil
        loop.stop()
    }
}

/// Unbuffered writes to fd 1 / fd 2 for the client commands.
enum ClientOutput {
    /// false when the reader is gone (EPIPE) or stdout failed.
    static func writeLine(_ s: String) -> Bool {
        let bytes = Array((s + "\n").utf8)
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { write(1, $0.baseAddress!, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return false }
            off += n
        }
        return true
    }

    static func error(_ s: String) {
        let bytes = Array((s + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress!, $0.count) }
    }
}
