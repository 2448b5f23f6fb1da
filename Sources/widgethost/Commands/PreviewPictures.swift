import FoundationEssentials
import OpenWidgetKit
import WidgetGraphics
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

/// `widgethost preview --png DIR` / `--svg DIR`: draws every widget × family × entry
/// (placeholder, snapshot, each timeline entry) into one file each, and a contact sheet per
/// bundle with every family's snapshot side by side — Xcode's preview canvas, as files.
///
/// Drawing happens in this process (DESIGN §11 allows it for `preview`); the daemon never
/// draws. Runs on the calling thread.
struct PreviewPictures {
    let worker: BlockingWorkerClient
    let manifest: BundleManifest
    let directories: [(PictureFormat, String)]
    let options: PictureOptions
    /// Timeline entries drawn per widget and family at most.
    static let maxEntries = 120

    /// Writes the files; returns the number of failures (errors are printed).
    func run(widgets: [WidgetDescriptor], families: (WidgetDescriptor) -> [WidgetFamily],
             configuration: (WidgetDescriptor) throws -> [String: JSONValue]) throws -> Int {
        for (_, dir) in directories where mkdir(dir, 0o755) != 0 && errno != EEXIST {
            throw BlockingWorkerClient.Failure(description: "cannot create directory \(dir): \(String(cString: strerror(errno)))")
        }
        let renderer = PictureRenderer()
        var failures = 0, written = 0
        var unmapped: Set<String> = []
        var sheetRows: [(caption: String, cells: [(family: WidgetFamily, tree: ViewNode)])] = []
        for widget in widgets {
            let config = try configuration(widget)
            var cells: [(family: WidgetFamily, tree: ViewNode)] = []
            for family in families(widget) {
                for op in [WireOperation.placeholder, .snapshot, .timeline] {
                    let entries: [WireEntry]
                    do {
                        let r = try worker.request(WireRequest(op: op, kind: widget.kind, family: family, configuration: config, isPreview: op != .timeline))
                        guard r.ok else { throw BlockingWorkerClient.Failure(description: r.error ?? "error") }
                        entries = r.entries ?? []
                    } catch {
                        failures += 1
                        print("\(widget.kind) \(family.rawValue) \(op.rawValue): ERROR \(error)")
                        continue
                    }
                    for (i, entry) in entries.prefix(op == .timeline ? Self.maxEntries : 1).enumerated() {
                        if op == .snapshot { cells.append((family, entry.view)) }
                        var o = options
                        o.now = op == .timeline ? entry.date : options.now
                        let name = Self.fileName(kind: widget.kind, family: family, op: op, index: i)
                        for (format, dir) in directories {
                            do {
                                let picture = try renderer.render(entry.view, family: family, format: format, options: o)
                                unmapped.formUnion(picture.unmappedSymbols)
                                try Self.write(picture.bytes, to: dir + "/" + name + "." + format.rawValue)
                                written += 1
                            } catch {
                                failures += 1
                                print("\(name).\(format.rawValue): ERROR \(error)")
                            }
                        }
                    }
                }
            }
            if !cells.isEmpty { sheetRows.append((caption: "\(widget.displayName) — \(widget.kind)", cells: cells)) }
        }
        if !sheetRows.isEmpty {
            for (format, dir) in directories {
                do {
                    let sheet = try renderer.renderSheet(title: manifest.bundleId, rows: sheetRows, format: format, options: options)
                    try Self.write(sheet.bytes, to: dir + "/" + Self.safe(manifest.bundleId) + "-sheet." + format.rawValue)
                    written += 1
                } catch {
                    failures += 1
                    print("sheet.\(format.rawValue): ERROR \(error)")
                }
            }
        }
        print("wrote \(written) file\(written == 1 ? "" : "s") to \(directories.map(\.1).joined(separator: ", "))")
        if !unmapped.isEmpty {
            print("symbols with no icon (drawn as a dashed box): \(unmapped.sorted().joined(separator: ", "))")
        }
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

    static func write(_ bytes: [UInt8], to path: String) throws {
        let tmp = path + ".tmp"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw BlockingWorkerClient.Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + off, bytes.count - off) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { close(fd); unlink(tmp); throw BlockingWorkerClient.Failure(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
            off += n
        }
        close(fd)
        guard rename(tmp, path) == 0 else { unlink(tmp); throw BlockingWorkerClient.Failure(description: "cannot rename to \(path): \(String(cString: strerror(errno)))") }
    }
}
