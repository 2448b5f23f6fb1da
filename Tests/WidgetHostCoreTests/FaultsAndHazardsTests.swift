import FoundationEssentials
import Logging
import OpenWidgetKit
import Testing
@testable import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// Issue 23, item 5, below the daemon: which URLs reach the opener, the widget limit, the
/// `status` answer at any size, config files that are not regular files, shared folders, and a
/// picture whose write failed.
@Suite struct FaultsAndHazardsTests {
    let logger = Logger(label: "test")

    func parse(_ json: String) -> (config: HostConfig, errors: [String]) {
        let c = ConfigParser.check(Data(json.utf8), baseDirectory: "/tmp", environment: ["HOME": "/tmp"])
        return (c.config, c.errors.map(\.description))
    }

    /// A folder of its own under /tmp, removed at the end.
    func tempFolder() -> String {
        var template = Array("/tmp/widgethost-hazard-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    func mode(_ path: String) -> mode_t { var st = stat(); stat(path, &st); return st.st_mode & 0o7777 }

    // MARK: URLs

    @Test func onlyURLsWithAnAllowedSchemeMayBeOpened() {
        let standard = HostConfig.Defaults().openSchemes
        #expect(standard == ["https", "http", "mailto"])
        for url in ["--help", "-x:y", "", "://x", "1x:y", "no scheme", "x y:z"] {
            #expect(OpenableURL.refusal(url, allowed: standard) == "\"\(url)\" does not begin with a URL scheme", "\(url)")
        }
        #expect(OpenableURL.refusal("HTTPS://example.org/a", allowed: standard) == nil)
        #expect(OpenableURL.refusal("mailto:a@b.c", allowed: standard) == nil)
        #expect(OpenableURL.refusal("file:///etc/passwd", allowed: standard) == "the scheme \"file\" is not in defaults.openSchemes (https, http, mailto)")
        #expect(OpenableURL.refusal("myapp://habit", allowed: ["myapp"]) == nil)
        #expect(OpenableURL.scheme(of: "git+ssh://h/r") == "git+ssh")
    }

    @Test func openSchemesParseLowercasedAndMalformedOnesAreNamed() {
        #expect(parse(#"{"defaults": {"openSchemes": ["HTTPS", "myapp", "x-y.z+w"]}}"#).config.defaults.openSchemes == ["https", "myapp", "x-y.z+w"])
        #expect(parse(#"{"defaults": {"openSchemes": []}}"#).config.defaults.openSchemes == [])
        let errors = parse(#"{"defaults": {"openSchemes": ["ok", "my:app", "", "-x", 3]}}"#).errors
        #expect(errors.count == 1 && errors[0].hasPrefix("defaults.openSchemes[1]: \"my:app\" is not a URL scheme"), "\(errors)")
        #expect(parse(#"{"defaults": {"openSchemes": ["-x"]}}"#).errors.first?.hasPrefix("defaults.openSchemes[0]: \"-x\" is not a URL scheme") == true)
        #expect(parse(#"{"defaults": {"openSchemes": "https"}}"#).errors.first?.hasPrefix("defaults.openSchemes: expected an array") == true)
    }

    // MARK: the widget limit and status at any size

    @Test func aConfigWithMoreWidgetsThanTheLimitIsRefusedNamingIt() {
        func widgets(_ n: Int) -> String {
            #"{"widgets": ["# + (0..<n).map { #"{"kind": "k", "id": "w\#($0)"}"# }.joined(separator: ",") + "]}"
        }
        let at = parse(widgets(HostConfig.widgetLimit))
        #expect(at.errors.isEmpty && at.config.widgets?.count == HostConfig.widgetLimit)
        let over = parse(widgets(HostConfig.widgetLimit + 1)).errors
        #expect(over == ["widgets: \(HostConfig.widgetLimit + 1) widgets: at most \(HostConfig.widgetLimit) per config (docs/limits.md)"])
    }

    @Test func aLineArrivingInManyChunksIsFoundOnceWhole() throws {
        var splitter = LineSplitter(maxLine: 1 << 20)
        let line = [UInt8](repeating: 0x61, count: 300_000)
        var lines: [[UInt8]] = []
        for start in stride(from: 0, to: line.count, by: 4096) { lines += try splitter.feed(line[start..<min(start + 4096, line.count)]) }
        #expect(lines.isEmpty)
        lines += try splitter.feed([0x0a, 0x62, 0x0a, 0x63])
        #expect(lines == [line, [0x62]])
        #expect(try splitter.feed([0x0a]) == [[0x63]])
    }

    /// A `status` answer far over the 1 MiB a request may have (10 000 widgets, about 5 MB)
    /// reaches the client whole: it once failed with `Overflow`.
    @Test func aStatusOfTenThousandWidgetsReachesTheClient() throws {
        let dir = tempFolder(); defer { _ = system("rm -rf '\(dir)'") }
        let path = dir + "/control.sock"
        let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &addr.sun_path) { buf in for (i, b) in path.utf8.enumerated() { buf[i] = b } }
        let bound = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(server, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        try #require(bound == 0 && listen(server, 1) == 0)
        let widget = HostStatus.Widget(id: "w", kind: "Clock", family: "systemSmall", bundle: "SystemWidgets.so", parameters: [:],
                                       text: "12:00:00 Thursday 19 November", relevance: nil, entryDate: nil, entries: 60,
                                       nextReload: nil, nextReloadReason: nil, lastReload: nil, lastReloadReason: "timeline policy .atEnd",
                                       lastReloadSeconds: 0.001, reloading: false, timelineRequests: 1, consecutiveFailures: 0,
                                       lastError: nil, url: nil, controls: [])
        let widgets = (0..<10_000).map { i -> HostStatus.Widget in var w = widget; w.id = "clock-\(i)"; return w }
        let answer = ControlCodec.encode(ControlResponse(ok: true, status: HostStatus(bundles: [], rejected: [], widgets: widgets)))
        #expect(answer.count > 2 << 20, "over the requests' 1 MiB bound: \(answer.count) bytes")
        var serving = pthread_t()
        try #require(pthread_create(&serving, nil, { raw in
            Unmanaged<AnswerOnce>.fromOpaque(raw!).takeRetainedValue().serve()
            return nil
        }, Unmanaged.passRetained(AnswerOnce(server: server, answer: answer)).toOpaque()) == 0)
        let response = try ControlSocketClient.send(ControlRequest(op: .status), to: path, timeout: 30)
        pthread_join(serving, nil)
        #expect(response.status?.widgets.count == 10_000)
    }

    // MARK: config files that are not regular files

    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let dir = tempFolder(); defer { _ = system("rm -rf '\(dir)'") }
        try #require(mkfifo(dir + "/config.json", 0o600) == 0)
        #expect(throws: FileIO.Failure.self) { _ = try FileIO.readRegularFile(dir + "/config.json") }
        do { _ = try FileIO.readRegularFile(dir + "/config.json") } catch { #expect(error.description == "is a FIFO, not a regular file") }
        do { _ = try FileIO.readRegularFile(dir) } catch { #expect(error.description == "is a folder, not a regular file") }
        do { _ = try FileIO.readRegularFile(dir + "/none") } catch { #expect(error.description == "cannot read the file: No such file or directory") }
        FileIO.remove(dir + "/config.json")
        try FileIO.writeAtomically(Data("{}".utf8), to: dir + "/config.json")
        #expect(try FileIO.readRegularFile(dir + "/config.json") == Data("{}".utf8))
    }

    // MARK: shared folders

    /// A 1777 folder (as /tmp) named as `state` or `out` is refused, never chmodded: the sticky
    /// bit stays.
    @Test func aSharedFolderIsRefusedAndKeepsItsMode() throws {
        let shared = tempFolder(); defer { _ = system("rm -rf '\(shared)'") }
        try #require(chmod(shared, 0o1777) == 0)
        #expect(HostFolders.problem(shared)?.hasPrefix("\(shared) is a shared folder (mode 1777): refused") == true)
        var paths = HostConfig.Paths(plugins: "/p", out: shared + "/out", containers: "/c", state: shared)
        #expect(HostFolders.problem(paths)?.key == "paths.state")
        paths.state = shared + "/state"
        #expect(HostFolders.problem(paths) == nil, "folders that do not exist yet are the host's to create")
        paths.out = shared
        #expect(HostFolders.problem(paths)?.key == "paths.out")
        StatePermissions.apply(state: shared, out: shared, logger: logger)
        #expect(mode(shared) == 0o1777, "never chmodded")
        StatePermissions.apply(state: shared + "/state", out: shared, logger: logger)
        #expect(mode(shared + "/state") == 0o700, "created private")
        #expect(mode(shared) == 0o1777)
    }

    // MARK: a picture whose write failed

    /// Drawn but not written (the render process said `writeFailed`): drawn again after 1 s, then
    /// 2 s, with no new entry, until it lands; a picture that could not be drawn is not.
    @Test func aPictureWhoseWriteFailedIsDrawnAgainWithBackoffUntilItLands() throws {
        let loop = VirtualLoop(), launcher = FakeRenderLauncher()
        var c = try ConfigParser.parse(Data(), baseDirectory: "/tmp", environment: ["HOME": "/tmp"])
        c.paths.out = "/tmp/out"
        let p = PictureOutputs(config: c, loop: loop, launcher: launcher, logger: logger)
        var view = ViewNode(kind: .text); view.text = "12:00"
        p.show(InstanceSpec(id: "w", bundleName: "b.so", kind: "k", family: .systemSmall, outputs: [.png]), view: view, now: loop.now, live: false)
        let writeFailed = PictureRenderReply(ok: false, error: "cannot write /tmp/out/.w.png.1.tmp: No space left on device", writeFailed: true)
        /// Answers the request waiting with `reply`.
        func answer(_ reply: PictureRenderReply) throws {
            try #require(launcher.current.replies.count == 1, "one request waits")
            launcher.current.replies.removeFirst()(.success(reply))
        }
        try answer(writeFailed)
        #expect(launcher.current.requests.count == 1)
        loop.advance(by: 0.9)
        #expect(launcher.current.requests.count == 1)
        loop.advance(by: 0.2)
        #expect(launcher.current.requests.count == 2, "drawn again after 1 s")
        try answer(writeFailed)
        loop.advance(by: 1.5)
        #expect(launcher.current.requests.count == 2)
        loop.advance(by: 0.6)
        #expect(launcher.current.requests.count == 3, "then after 2 s")
        try #require(launcher.current.replies.count == 1)
        launcher.current.answer()
        loop.advance(by: 120)
        #expect(launcher.current.requests.count == 3, "landed: nothing more")
        #expect(launcher.current.requests.last?.view == view)
        // A tree that cannot be drawn is not drawn again until it changes.
        view.text = "12:01"
        p.show(InstanceSpec(id: "w", bundleName: "b.so", kind: "k", family: .systemSmall, outputs: [.png]), view: view, now: loop.now, live: false)
        try answer(PictureRenderReply(ok: false, error: "bad tree"))
        loop.advance(by: 120)
        #expect(launcher.current.requests.count == 4)
    }
}

/// A control socket server that answers one connection with fixed bytes, on its own thread.
private final class AnswerOnce: @unchecked Sendable {
    let server: Int32
    let answer: [UInt8]
    init(server: Int32, answer: [UInt8]) { self.server = server; self.answer = answer }

    func serve() {
        let client = accept(server, nil, nil)
        var request = [UInt8](repeating: 0, count: 4096)
        _ = read(client, &request, request.count)
        var off = 0
        while off < answer.count {  // MSG_NOSIGNAL: a client that gave up must not SIGPIPE the tests
            let n = answer.withUnsafeBytes { send(client, $0.baseAddress! + off, answer.count - off, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            off += n
        }
        close(client); close(server)
    }
}
