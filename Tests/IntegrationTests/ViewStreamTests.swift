import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// A subscriber of a test daemon's view stream (`{"op":"watch"}`), read without blocking.
final class ViewStreamSubscriber {
    let fd: Int32
    private var decoder = DesktopViewStreamDecoder()
    private(set) var messages: [DesktopViewMessage] = []
    private(set) var failure: String?
    private(set) var ended = false

    /// Connects to `socket` and asks for the stream (`request`: the watch line); nil when the
    /// connection is refused.
    init?(socket: String, request line: String = #"{"op":"watch"}"#) {
        fd = connectUnix(socket)
        guard fd >= 0 else { return nil }
        let request = Array((line + "\n").utf8)
        guard request.withUnsafeBytes({ write(fd, $0.baseAddress!, $0.count) }) == request.count else { close(fd); return nil }
    }

    deinit { close(fd) }

    /// Reads what has arrived.
    func poll() {
        var buf = [UInt8](repeating: 0, count: 65_536)
        while !ended {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n == 0 { ended = true; break }
            if n < 0 { if errno == EINTR { continue }; if errno != EAGAIN { ended = true }; break }
            do { messages += try decoder.feed(buf[0..<n]) } catch { failure = "\(error)"; ended = true }
        }
    }

    /// Waits until `condition` holds of the messages read so far.
    @discardableResult
    func wait(timeout: Double = 20, _ condition: ([DesktopViewMessage]) -> Bool) -> Bool {
        eventually(timeout: timeout) { poll(); return condition(messages) }
    }

    /// Bytes the host wrote that this subscriber has not read (`FIONREAD`).
    var unread: Int {
        var n: Int32 = 0
        _ = ioctl(fd, UInt(FIONREAD), &n)
        return Int(n)
    }
}

/// The desktop view stream of a real host with real `.so` plugins (issue 26): a snapshot, then
/// one message per change of a desktop widget and nothing for the others, a new snapshot after a
/// config edit; a subscriber that never reads costs the host nothing; at most 8 subscribers; the
/// socket's peer rules hold for it as for every op.
@Suite(.serialized) struct ViewStreamTests {
    static let paths = #""paths": {"plugins": "Plugins", "out": "out", "containers": "containers", "state": "state", "socket": "control.sock""#

    /// `probe` (on the desktop, a picture output too), `hello` (on the desktop) and `bar` (the
    /// probe kind again, not on the desktop).
    /// `monitors`: more keys of the `desktop` section (`output`, `outputs`).
    static func config(columns: Int = 2, monitors: String = "") -> String {
        """
        {\(paths)},
         "widgets": [
           {"id": "probe", "kind": "probe", "family": "systemSmall", "outputs": ["files", "png"]},
           {"id": "hello", "kind": "hello", "family": "systemSmall", "outputs": ["files"]},
           {"id": "bar", "kind": "probe", "family": "accessoryInline", "outputs": ["files"]}],
         "desktop": {"widgets": ["probe", "hello"], "columns": \(columns)\(monitors)}}
        """
    }

    /// A host with the probe (entries 1000 s apart: a tree changes only when the container does,
    /// never with the time) and the C example installed, the container value `hello`.
    static func daemon(config: String = ViewStreamTests.config()) throws -> RunningDaemon {
        let d = try RunningDaemon(config: config) { dir in
            _ = run("/bin/mkdir", ["-p", dir + "/containers/group.probe"])
            FileManagerFree.write(dir + "/containers/group.probe/value.txt", "hello\n")
        }
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=1000"]), as: "probe.so")
        d.install(try buildCPlugin(in: d.dir.path, name: "hello"), as: "hello.so")
        #expect(eventually { d.text("probe") == "v1 hello #0" && d.text("bar") == "v1 hello #0" && d.text("hello") != nil }, "\(d.stderr.suffix(2000))")
        return d
    }

    static func text(_ json: String) throws -> ViewNode { try WireCodec.decode(ViewNode.self, from: Data(json.utf8)) }

    @Test func aSnapshotThenOneMessagePerChangeOfADesktopWidgetThenASnapshotAfterAConfigEdit() throws {
        let started = Date()
        let d = try Self.daemon()
        let s = try #require(ViewStreamSubscriber(socket: d.dir.path + "/control.sock"))
        #expect(s.wait { !$0.isEmpty }, "\(d.stderr.suffix(2000))")
        let first = try #require(s.messages.first)
        #expect(first.snapshot)
        #expect(first.layout == DesktopViewMessage.Layout(widgets: ["probe", "hello"], anchor: "top-right", margin: 32, gap: 22,
                                                          columns: 2, scale: 1, dark: nil))
        #expect(first.widgets.map(\.id) == ["probe", "hello"])
        let probe = try #require(first.widgets.first)
        #expect(probe.view == (try Self.text(#"{"kind":"text","text":"v1 hello #0"}"#)))
        #expect(probe.kind == "probe" && probe.family == .systemSmall && probe.running && !probe.stale)
        let date = try #require(probe.entryDate)
        #expect(date >= started.addingTimeInterval(-1) && date <= Date(), "the entry's date, from the worker's clock: \(date)")
        #expect(first.widgets.last?.view?.kind == .vstack)

        d.writeContainer("group.probe", "value.txt", "world\n")
        #expect(s.wait { $0.count >= 2 }, "\(d.stderr.suffix(2000))")
        #expect(eventually { d.text("bar") == "v1 world #0" }, "the widget off the desktop changed too")
        // A config edit: a new snapshot, after which nothing else came in between.
        FileManagerFree.write(d.dir.path + "/config.json", Self.config(columns: 4, monitors: #", "output": "all", "outputs": {"hello": "DP-2"}"#))
        #expect(s.wait { $0.count >= 3 && $0.last?.snapshot == true }, "\(s.messages.count) messages\n\(d.stderr.suffix(2000))")
        let changes = s.messages.dropFirst().prefix { !$0.snapshot }
        #expect(changes.count == 1, "exactly one change message: \(changes)")
        #expect(changes.first?.widgets.map(\.id) == ["probe"] && changes.first?.removed == [])
        #expect(changes.first?.widgets.first?.view == (try Self.text(#"{"kind":"text","text":"v1 world #0"}"#)))
        let last = try #require(s.messages.last)
        #expect(last.layout?.columns == 4 && last.widgets.map(\.id) == ["probe", "hello"])
        // Each widget's monitor goes to the surface, which resolves it.
        #expect(last.layout?.output == "all" && last.layout?.outputs == ["hello": "DP-2"], "\(String(describing: last.layout))")
        #expect(last.widgets.first?.view == changes.first?.widgets.first?.view)
        #expect(s.failure == nil)
    }

    @Test func aCrashedWorkerIsStreamedAsNotRunningAndStaleUntilItServesAgain() throws {
        let d = try Self.daemon()
        let s = try #require(ViewStreamSubscriber(socket: d.dir.path + "/control.sock"))
        #expect(s.wait { $0.first?.widgets.first?.running == true })
        func probe(_ m: DesktopViewMessage) -> DesktopViewMessage.Widget? { m.widgets.first { $0.id == "probe" } }
        d.writeContainer("group.probe", "value.txt", "crash\n")
        #expect(s.wait { $0.contains { probe($0)?.running == false } && $0.contains { probe($0)?.stale == true } },
                "\(s.messages.map { probe($0).map { "running \($0.running) stale \($0.stale)" } ?? "-" })\n\(d.stderr.suffix(2000))")
        // The last tree stays, marked.
        #expect(s.messages.dropFirst().compactMap(probe).allSatisfy { $0.view?.text == "v1 hello #0" })
        d.writeContainer("group.probe", "value.txt", "back\n")
        #expect(s.wait { $0.last { probe($0) != nil }.flatMap(probe).map { $0.running && !$0.stale && $0.view?.text == "v1 back #0" } == true },
                "\(d.stderr.suffix(2000))")
    }

    @Test func aWidgetWhosePluginIsRemovedIsStreamedAsRemoved() throws {
        let d = try Self.daemon()
        let s = try #require(ViewStreamSubscriber(socket: d.dir.path + "/control.sock"))
        #expect(s.wait { $0.first?.widgets.map(\.id) == ["probe", "hello"] })
        unlink(d.dir.path + "/Plugins/hello.so")
        #expect(s.wait { $0.contains { $0.removed == ["hello"] } }, "\(d.stderr.suffix(2000))")
        let message = try #require(s.messages.first { $0.removed == ["hello"] })
        #expect(!message.snapshot && message.widgets.isEmpty)
    }

    @Test func aSubscriberThatNeverReadsDoesNotDelayTheOutputs() throws {
        // Ten desktop widgets of long texts: the silent subscriber's socket fills in a few writes.
        let ids = (0..<10).map { "p\($0)" }
        let widgets = ids.map { #"{"id": "\#($0)", "kind": "probe", "family": "systemSmall", "outputs": ["files"]}"# }
        let config = """
            {\(Self.paths)}, "defaults": {"containerCoalesceMs": 10},
             "widgets": [\(widgets.joined(separator: ", ")), {"id": "bar", "kind": "probe", "family": "accessoryInline", "outputs": ["files"]}],
             "desktop": {"widgets": [\(ids.map { "\"\($0)\"" }.joined(separator: ", "))]}}
            """
        let d = try RunningDaemon(config: config) { dir in _ = run("/bin/mkdir", ["-p", dir + "/containers/group.probe"]) }
        d.install(try buildProbe(in: d.dir.path, name: "probe", defines: ["PROBE_STEP=1000"]), as: "probe.so")
        #expect(eventually { d.text("bar") == "v1 none #0" }, "\(d.stderr.suffix(2000))")
        let silent = try #require(ViewStreamSubscriber(socket: d.dir.path + "/control.sock"))
        let reader = try #require(ViewStreamSubscriber(socket: d.dir.path + "/control.sock"))
        #expect(reader.wait { !$0.isEmpty })
        let filler = String(repeating: "x", count: 200)
        var n = 0
        func change() -> Bool {
            n += 1
            let value = "\(n)\(filler)"
            d.writeContainer("group.probe", "value.txt", value + "\n")
            // The bar's text is cut short with an ellipsis; its start names the change.
            return eventually(timeout: 10) { reader.poll(); return d.text("bar")?.hasPrefix("v1 \(n)x") == true }
        }
        // Until the host holds the silent one back (its socket full), every output keeps up.
        while !d.stderr.contains("subscriber 1 is not reading") && n < 400 {
            #expect(change(), "output \(n) late: \(d.text("bar") ?? "-")\n\(d.stderr.suffix(1500))")
        }
        #expect(d.stderr.contains("subscriber 1 is not reading"), "\(n) changes and the silent subscriber never filled: \(silent.unread) bytes unread")
        #expect(silent.unread > 50_000, "\(silent.unread)")
        // And after: ten more changes, each in the file at once and in the reader's stream.
        for _ in 0..<10 { #expect(change(), "output \(n) late with a subscriber held back\n\(d.stderr.suffix(1500))") }
        let value = "\(n)\(filler)"
        #expect(reader.wait { $0.last?.widgets.contains { $0.view?.text == "v1 \(value) #0" } == true }, "the reader kept up")
        #expect(kill(d.pid, 0) == 0)
    }

    @Test func aNinthSubscriberIsRefusedAndAPlaceFreedIsTakenAgain() throws {
        let d = try Self.daemon()
        let socket = d.dir.path + "/control.sock"
        var eight: [ViewStreamSubscriber] = []
        for _ in 0..<8 {
            let s = try #require(ViewStreamSubscriber(socket: socket))
            #expect(s.wait { $0.first?.snapshot == true })
            eight.append(s)
        }
        let ninth = try #require(ViewStreamSubscriber(socket: socket))
        #expect(ninth.wait { _ in ninth.ended })
        #expect(ninth.failure?.contains("refused: 8 view stream subscribers are connected") == true, "\(ninth.failure ?? "no error")")
        #expect(d.stderr.contains("control socket: watch refused"))
        // The eight are served on; one leaves and its place is free.
        d.writeContainer("group.probe", "value.txt", "again\n")
        for s in eight { #expect(s.wait { $0.count == 2 }) }
        eight.removeLast()
        #expect(eventually { d.stderr.contains("view stream: subscriber") && d.stderr.contains(" disconnected") }, "the host saw it go")
        let tenth = try #require(ViewStreamSubscriber(socket: socket))
        #expect(tenth.wait { $0.first?.snapshot == true }, "\(tenth.failure ?? "")")
        // Other ops still answer.
        let status = run(TestPaths.widgethost, ["status", "--config", d.dir.path + "/config.json"])
        #expect(status.status == 0, "\(status.stderr)")
    }

    @Test func anotherUserAndAnotherUserNamespaceAreRefusedAsForEveryOp() throws {
        let d = try Self.daemon()
        let socket = d.dir.path + "/control.sock"
        let client = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX)
            s.connect(sys.argv[1])
            try:
                s.sendall(b'{"op":"watch"}\\n')
                data = s.recv(4096)
            except OSError:
                data = b''  # closed by the host: reset
            print(repr(data))
            """
        // Another uid: the kernel refuses the connection (the socket is 0600).
        let other = run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", client, socket])
        #expect(other.status != 0 && other.stderr.contains("PermissionError"), "\(other.stdout)\(other.stderr)")
        // The same uid in another user namespace (as a sandboxed worker is): the host refuses it.
        let namespaced = run("/usr/bin/unshare", ["--user", "/usr/bin/python3", "-c", client, socket])
        #expect(namespaced.stdout.contains("b''"), "nothing streamed: \(namespaced.stdout)\(namespaced.stderr)")
        #expect(eventually { d.stderr.contains("control socket: refused pid") && d.stderr.contains("another user namespace") }, "\(d.stderr.suffix(1500))")
        #expect(!d.stderr.contains("view stream: subscriber"), "neither became a subscriber")
    }
}
