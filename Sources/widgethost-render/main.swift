// widgethost-render: the render process. `widgethost-render --serve` is the daemon's (RenderServer,
// confined by RenderConfinement).
// `widgethost-render --job FILE` draws a `PictureJob`
// (written by `widgethost preview --png/--svg`) to PNG / SVG files with WidgetGraphics, prints
// "wrote N files" and the SF Symbols it had no icon for, and exits 1 if any picture failed.
// It is the only executable that links Cairo and Pango: `widgethost` (daemon, workers) stays
// free of them (DESIGN §11). Single-threaded.
import FoundationEssentials
import OpenWidgetKit
import WidgetGraphics
import WidgetRendering
import WidgetHostCore
#if canImport(Glibc)
import Glibc
#endif

func fail(_ message: String) -> Never {
    let b = Array(("widgethost-render: " + message + "\n").utf8)
    _ = b.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

let args = Array(CommandLine.arguments.dropFirst())
let usage = "usage: widgethost-render --job FILE | --serve [--out DIR] [--memory-mb N]"
if args.first == "--serve" {
    guard let options = RenderConfinement.parse(Array(args.dropFirst())) else { fail(usage) }
    RenderServer.run(options)
}
guard args.count == 2, args[0] == "--job" else { fail(usage) }
guard let bytes = FileIO.read(args[1]) else { fail("cannot read \(args[1]): \(String(cString: strerror(errno)))") }
let job: PictureJob
do { job = try WireCodec.decode(PictureJob.self, from: bytes) } catch { fail("bad job file \(args[1]): \(error)") }

let renderer = PictureRenderer(locale: .currentTime)
let base = PictureOptions(scale: job.scale, appearance: job.dark ? .dark : .light, now: job.now, tint: job.tint.flatMap(AccentTint.style))
var written = 0, failures = 0
var unmapped: Set<String> = []

/// Draws one picture in each format it has a path for.
@MainActor func produce(_ paths: [(PictureFormat, String?)], _ draw: (PictureFormat) throws -> Picture) {
    for case let (format, path?) in paths {
        do {
            let picture = try draw(format)
            unmapped.formUnion(picture.unmappedSymbols)
            try FileIO.writeAtomically(Data(picture.bytes), to: path)
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
