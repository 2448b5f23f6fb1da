import FoundationEssentials
import OpenWidgetKit
import WidgetHostCore
import WidgetRendering
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost preview --png DIR` / `--svg DIR`: asks the worker for every widget × family ×
/// entry (placeholder, snapshot, each timeline entry) and has the render process
/// (`widgethost-render`, next to this executable or `WIDGETHOST_RENDER_EXECUTABLE`) draw one file
/// each, plus a contact sheet per bundle with every family's snapshot side by side — Xcode's
/// preview canvas, as files. `widgethost` itself never links Cairo (DESIGN §11).
/// Runs on the calling thread.
struct PreviewPictures {
    let worker: BlockingWorkerClient
    let manifest: BundleManifest
    let png: String?
    let svg: String?
    let scale: Double
    let dark: Bool
    /// Names each colour, image and string the bundle lacks, once.
    let missing: MissingResourceReport
    /// The accented rendering mode's tint (`--tint`); nil: full colour.
    let tint: String?
    /// Timeline entries drawn per widget and family at most.
    static let maxEntries = 120

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Draws the pictures; returns the number of failures (errors are printed).
    func run(widgets: [WidgetDescriptor], families: (WidgetDescriptor) -> [WidgetFamily],
             configuration: (WidgetDescriptor) throws -> [String: JSONValue]) throws -> Int {
        for dir in [png, svg].compactMap({ $0 }) {
            // With its parents, as `mkdir -p` does: `--png out/png` in a fresh package works.
            do { try FileIO.makeDirectories(dir) } catch { throw Failure(description: "\(error)") }
            guard FileIO.isDirectory(dir) else { throw Failure(description: "\(dir) is not a folder") }
        }
        let now = Date()
        var failures = 0
        var items: [PictureJob.Item] = []
        var rows: [PictureJob.Sheet.Row] = []
        var background = PreviewBackgroundCheck()
        for widget in widgets {
            let config = try configuration(widget)
            var row = PictureJob.Sheet.Row(caption: "\(widget.displayName) — \(widget.kind)", families: [], views: [])
            for family in families(widget) {
                for op in [WireOperation.placeholder, .snapshot, .timeline] {
                    let entries: [WireEntry]
                    do {
                        let r = try worker.request(WireRequest(op: op, kind: widget.kind, family: family, configuration: config, isPreview: op != .timeline,
                                                               colorScheme: dark ? .dark : nil, renderingMode: tint == nil ? nil : "accented"))
                        guard r.ok else { throw Failure(description: r.error ?? "error") }
                        entries = r.entries ?? []
                        for line in missing.lines(r, kind: widget.kind) { ControlClient.printError("preview: warning: " + line) }
                    } catch {
                        failures += 1
                        print("\(widget.kind) \(family.rawValue) \(op.rawValue): ERROR \(error)")
                        continue
                    }
                    background.check(entries, family: family)
                    for (i, entry) in entries.prefix(op == .timeline ? Self.maxEntries : 1).enumerated() {
                        if op == .snapshot { row.families.append(family); row.views.append(entry.view) }
                        let name = Self.fileName(kind: widget.kind, family: family, op: op, index: i)
                        items.append(PictureJob.Item(family: family, now: op == .timeline ? entry.date : now, view: entry.view,
                                                     png: png.map { $0 + "/" + name + ".png" }, svg: svg.map { $0 + "/" + name + ".svg" }))
                    }
                }
            }
            background.report(kind: widget.kind)
            if !row.views.isEmpty { rows.append(row) }
        }
        let sheetName = "/" + Self.safe(manifest.bundleId) + "-sheet"
        let sheets = rows.isEmpty ? [] : [PictureJob.Sheet(title: manifest.bundleId, rows: rows,
                                                           png: png.map { $0 + sheetName + ".png" }, svg: svg.map { $0 + sheetName + ".svg" })]
        let job = PictureJob(scale: scale, dark: dark, now: now, items: items, sheets: sheets, tint: tint)
        if try !Self.render(job) { failures += 1 }
        return failures
    }

    /// `<kind>-<family>-placeholder`, `-snapshot`, `-timeline-<NN>`.
    static func fileName(kind: String, family: WidgetFamily, op: WireOperation, index: Int) -> String {
        let suffix = op == .timeline ? "timeline-" + (index < 10 ? "0" : "") + String(index) : op.rawValue
        return safe(kind) + "-" + family.rawValue + "-" + suffix
    }

    /// `s` with every character but letters, digits, `.`, `_` and `-` replaced by `_`.
    static func safe(_ s: String) -> String {
        let out = String(s.map { c in c.isASCII && (c.isLetter || c.isNumber || c == "." || c == "_" || c == "-") ? c : "_" })
        return out.isEmpty || out.hasPrefix(".") ? "_" + out : out
    }

    /// The render executable: `WIDGETHOST_RENDER_EXECUTABLE`, else `widgethost-render` next to
    /// this executable.
    static func renderExecutable() -> String {
        if let e = getenv("WIDGETHOST_RENDER_EXECUTABLE") { return String(cString: e) }
        return SiblingExecutable.path("widgethost-render")
    }

    /// Writes `job` to a temporary file and runs the render process on it (its output goes to
    /// ours); true when it drew everything.
    static func render(_ job: PictureJob) throws -> Bool {
        let data = try WireCodec.encode(job)
        var template = Array("/tmp/widgethost-pictures-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Failure(description: "cannot create a job file: \(String(cString: strerror(errno)))") }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        defer { unlink(path) }
        var off = 0
        let bytes = [UInt8](data)
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + off, bytes.count - off) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { close(fd); throw Failure(description: "cannot write the job file: \(String(cString: strerror(errno)))") }
            off += n
        }
        close(fd)
        let exe = renderExecutable()
        var argv: [UnsafeMutablePointer<CChar>?] = []
        for a in [exe, "--job", path] { argv.append(strdup(a)) }
        argv.append(nil)
        defer { argv.forEach { free($0) } }
        fflush(nil)
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, exe, nil, nil, argv, environ)
        guard rc == 0 else { throw Failure(description: "cannot run \(exe): \(String(cString: strerror(rc)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7f) == 0 && (status >> 8) & 0xff == 0
    }
}
