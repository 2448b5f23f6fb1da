import ArgumentParser
import FoundationEssentials
import WidgetHostCore
import WidgetHostUV
import WidgetRendering
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

    @Flag(name: .long, help: "Show SF Symbols as Nerd Font glyphs (for bars whose font is a Nerd Font).")
    var nerdFont = false

    @Flag(name: .long, help: "Wait for a widget that is not there yet (for bars that start before the host) instead of exiting 1.")
    var wait = false

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
        let follower = Follower(directory: dir, id: id, format: fmt, wait: wait, nerdFont: nerdFont)
        throw ExitCode(follower.run())
    }
}

/// The loop of `follow`. Loop thread only.
///
/// Besides the widget's file it watches the host that writes the directory (`HostPresence`: a
/// pidfd on the pid in `.widgethost.pid`): while no host runs, the last output is printed as
/// stale (class `stale`, greyed where the format has colours) instead of a clock frozen at its
/// last second; a host that starts again rewrites the file and its outputs.
final class Follower {
    private let loop = UVLoop()
    private let directory: String
    private let id: String
    private let format: FollowFormatter.Format
    private let wait: Bool
    private let nerdFont: Bool
    private var watcher: UVFileWatcher?
    private var hangup: UVPoll?
    private var hostWatch: UVProcessExitWatch?
    private var hostGone = false
    private var last: String?
    private var status: Int32 = 0

    init(directory: String, id: String, format: FollowFormatter.Format, wait: Bool, nerdFont: Bool) {
        self.directory = directory; self.id = id; self.format = format; self.wait = wait; self.nerdFont = nerdFont
    }

    func run() -> Int32 {
        if !FileIO.exists(directory + "/" + id + ".json") {
            let others = (FileIO.list(directory) ?? []).filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
            ClientOutput.error("widgethost follow: no widget \"\(id)\" in \(directory)"
                               + (FileIO.isDirectory(directory) ? "" : " (the directory does not exist)")
                               + (others.isEmpty ? "" : "; widgets there: " + others.prefix(12).joined(separator: ", ") + (others.count > 12 ? ", …" : ""))
                               + ". Is the host running with this configuration? Name it with --config FILE or --out DIR"
                               + (wait ? "; waiting for the widget (--wait)." : ", or add --wait for bars that start before the host."))
            if !wait { return 1 }
        }
        try? FileIO.makeDirectories(directory)
        watcher = UVFileWatcher(loop: loop, path: directory) { [weak self] name, _, _ in
            guard let self else { return }
            if name == nil || name == HostPresence.fileName { self.watchHost() }
            if name == nil || name == self.id + ".json" { self.emitIfChanged() }
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
        watchHost()
        emitIfChanged()
        loop.run()
        loop.close()
        return status
    }

    /// (Re)reads `.widgethost.pid` and watches that process; no record or no such process means
    /// the host is gone.
    private func watchHost() {
        hostWatch?.close(); hostWatch = nil
        if let r = HostPresence.read(in: directory), HostPresence.isRunning(r),
           let w = UVProcessExitWatch(loop: loop, pid: r.pid, ended: { [weak self] in self?.hostEnded() }) {
            hostWatch = w
            if hostGone { hostGone = false; emitIfChanged() }
        } else if !hostGone {
            hostEnded()
        }
    }

    private func hostEnded() {
        hostWatch?.close(); hostWatch = nil
        hostGone = true
        ClientOutput.error("widgethost follow: no host is writing \(directory): \(id) is shown as stale until one starts")
        emitIfChanged()
    }

    private func emitIfChanged() {
        guard let data = FileIO.read(directory + "/" + id + ".json"), !data.isEmpty,
              var o = try? JSONDecoder().decode(WidgetOutput.self, from: data) else { return }
        if hostGone { o = FollowFormatter.markedStale(o, reason: "widgethost is not running") }
        if nerdFont {
            o.text = GlyphMap.nerdFontText(o.text)
            o.pango = o.pango.map(GlyphMap.nerdFontText)
            o.tooltip = o.tooltip.map(GlyphMap.nerdFontText)
        }
        let line = FollowFormatter.line(o, format: format)
        guard line != last else { return }
        last = line
        if !ClientOutput.writeLine(line) { stop() }
    }

    private func stop() {
        watcher?.close(); watcher = nil
        hangup?.close(); hangup = nil
        hostWatch?.close(); hostWatch = nil
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
