// widgethost-render: the render process. `widgethost-render --serve` is the daemon's (RenderServer).
// `widgethost-render --job FILE` draws a `PictureJob`
// (written by `widgethost preview --png/--svg`) to PNG / SVG files with WidgetGraphics, prints
// "wrote N files" and the SF Symbols it had no icon for, and exits 1 if any picture failed.
// It is the only executable that links Cairo and Pango: `widgethost` (daemon, workers) stays
// free of them (DESIGN §11). Single-threaded.
import FoundationEssentials
import OpenWidgetKit
import WidgetGraphics
import WidgetRendering
#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String) -> Never {
    let b = Array(("widgethost-render: " + message + "\n").utf8)
    _ = b.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

let args = Array(CommandLine.arguments.dropFirst())
if args == ["--serve"] { RenderServer.run() }
guard args.count == 2, args[0] == "--job" else { fail("usage: widgethost-render --job FILE | --serve") }
guard let bytes = FileIO.read(args[1]) else { fail("cannot read \(args[1]): \(String(cString: strerror(errno)))") }
let job: PictureJob
do { job = try WireCodec.decode(PictureJob.self, from: Data(bytes)) } catch { fail("bad job file \(args[1]): \(error)") }

let renderer = PictureRenderer()
let base = PictureOptions(scale: job.scale, appearance: job.dark ? .dark : .light, now: job.now)
var written = 0, failures = 0
var unmapped: Set<String> = []

/// Draws one picture in each format it has a path for.
@MainActor func produce(_ paths: [(PictureFormat, String?)], _ draw: (PictureFormat) throws -> Picture) {
    for case let (format, path?) in paths {
        do {
            let picture = try draw(format)
            unmapped.formUnion(picture.unmappedSymbols)
            try FileIO.writeAtomically(picture.bytes, to: path)
            written += 1
        } catch {
            failures += 1
            print("\(path): ERROR \(error)")
        }
    }
}

for item in job.items {
    var o = base
    o.now = item.now
    produce([(.png, item.png), (.svg, item.svg)]) { try renderer.render(item.view, family: item.family, format: $0, options: o) }
}
for sheet in job.sheets {
    let rows = sheet.rows.map { row in
        (caption: row.caption, cells: zip(row.families, row.views).map { (family: $0.0, tree: $0.1) })
    }
    produce([(.png, sheet.png), (.svg, sheet.svg)]) { try renderer.renderSheet(title: sheet.title, rows: rows, format: $0, options: base) }
}
print("wrote \(written) file\(written == 1 ? "" : "s")")
if !unmapped.isEmpty { print("symbols with no icon (drawn as a dashed box): \(unmapped.sorted().joined(separator: ", "))") }
exit(failures > 0 ? 1 : 0)

/// Whole-file reads and atomic writes (temporary name, then rename).
enum FileIO {
    static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buf.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { return out }
            out.append(contentsOf: buf[0..<n])
        }
    }

    struct WriteError: Error, CustomStringConvertible { var description: String }

    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let tmp = path + ".tmp"
        let fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError(description: "cannot write \(path): \(String(cString: strerror(errno)))") }
        var off = 0
        while off < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + off, bytes.count - off) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let e = String(cString: strerror(errno))
                close(fd); unlink(tmp)
                throw WriteError(description: "cannot write \(path): \(e)")
            }
            off += n
        }
        close(fd)
        guard rename(tmp, path) == 0 else { unlink(tmp); throw WriteError(description: "cannot rename to \(path): \(String(cString: strerror(errno)))") }
    }
}
