// The picture benchmark (issue 11): layout of each example's snapshot in each family, and the
// render of a systemSmall at scale 2 to PNG and to SVG. Not a test: it prints median and
// spread, for docs/performance.md. Run through scripts/bench-pictures.sh (release build, the
// pinned fonts of the goldens).
import FoundationEssentials
import OpenWidgetKit
import WidgetGraphics
import WidgetHostCore
import WidgetLayout
#if canImport(Glibc)
import Glibc
#endif

func nowNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Milliseconds per call of `body`: `iterations` timed calls after `warmup` untimed ones.
func measure(iterations defaultIterations: Int = 300, warmup defaultWarmup: Int = 30, _ body: () throws -> Void) rethrows -> [Double] {
    let iterations = iterationOverride ?? defaultIterations, warmup = iterationOverride.map { _ in 1 } ?? defaultWarmup
    for _ in 0..<warmup { try body() }
    var out: [Double] = []
    out.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let t0 = nowNanos()
        try body()
        out.append(Double(nowNanos() - t0) / 1e6)
    }
    return out.sorted()
}

func summary(_ s: [Double]) -> String {
    func f(_ v: Double) -> String {
        let thousandths = Int((v * 1000).rounded())
        let frac = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
    }
    let p = { (q: Double) in s[min(s.count - 1, Int(Double(s.count) * q))] }
    return "\(f(p(0.5))) | \(f(p(0.1)))–\(f(p(0.9))) | \(f(s.first ?? 0))–\(f(s.last ?? 0))"
}

let args = Array(CommandLine.arguments.dropFirst())
guard args.count >= 2 else {
    FileHandleFree.err("usage: PictureBench <widgethost> <plugin.so>…")
    exit(2)
}
let host = args[0]
// For profiling (valgrind --tool=callgrind): PICTUREBENCH_ONLY=<widget kind> keeps one widget,
// PICTUREBENCH_ITERATIONS=<n> times each figure n times (default 300 layouts, 200 renders).
let only = getenv("PICTUREBENCH_ONLY").map { String(cString: $0) }
let iterationOverride = getenv("PICTUREBENCH_ITERATIONS").flatMap { Int(String(cString: $0)) }.map { max(1, $0) }
let renderer = PictureRenderer()
let now = Date(timeIntervalSince1970: 1_773_569_442)
print("| bundle · widget | family | nodes | layout ms, text measured afresh: median | p10–p90 | min–max | layout ms, measurements kept: median | p10–p90 | min–max |")
print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
var smalls: [(String, ViewNode)] = []
for path in args.dropFirst() {
    let worker = try BlockingWorkerClient(pluginPath: path, executable: host)
    guard let manifest = try worker.request(WireRequest(op: .describe)).manifest else { continue }
    for widget in manifest.widgets where only == nil || only == widget.kind {
        for family in widget.families {
            let op: WireOperation = manifest.bundleId.hasPrefix("org.widgethost") ? .placeholder : .snapshot
            guard let entry = try worker.request(WireRequest(op: op, kind: widget.kind, family: family, isPreview: true)).entries?.first else { continue }
            let tree = entry.view
            let cold = measure { renderer.text.clearCache(); _ = renderer.layout(tree, family: family, now: now) }
            let warm = measure { _ = renderer.layout(tree, family: family, now: now) }
            print("| \(manifest.bundleId) · \(widget.kind) | \(family.rawValue) | \(tree.nodeCount) | \(summary(cold)) | \(summary(warm)) |")
            if family == .systemSmall { smalls.append(("\(manifest.bundleId) · \(widget.kind)", tree)) }
        }
    }
}
print("")
print("| systemSmall at scale 2 (text measured afresh) | PNG ms: median | p10–p90 | min–max | SVG ms: median | p10–p90 | min–max |")
print("| --- | --- | --- | --- | --- | --- | --- |")
// PICTUREBENCH_LAYOUT_ONLY=1: no renders (profiling the layout alone).
for (name, tree) in smalls where getenv("PICTUREBENCH_LAYOUT_ONLY") == nil {
    let options = PictureOptions(scale: 2, now: now)
    let png = try measure(iterations: 200, warmup: 20) { renderer.text.clearCache(); _ = try renderer.render(tree, family: .systemSmall, format: .png, options: options) }
    let svg = try measure(iterations: 200, warmup: 20) { renderer.text.clearCache(); _ = try renderer.render(tree, family: .systemSmall, format: .svg, options: options) }
    print("| \(name) | \(summary(png)) | \(summary(svg)) |")
}

enum FileHandleFree {
    static func err(_ s: String) { let b = Array((s + "\n").utf8); _ = b.withUnsafeBytes { write(2, $0.baseAddress, $0.count) } }
}
