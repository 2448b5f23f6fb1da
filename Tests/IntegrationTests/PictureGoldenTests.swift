import FoundationEssentials
import OpenWidgetKit
import Testing
import WidgetGraphics
#if canImport(Glibc)
import Glibc
#endif

/// Picture goldens: `widgethost preview --png` on every example bundle and the Xcode-style
/// fixture (iOS code built untouched), every family, scale 2,
/// compared with `Fixtures/pictures/<product>/` with a tolerance (`threshold` per channel,
/// at most `maxDiffering` pixels), so an anti-aliasing change passes and a moved element fails.
///
/// Deterministic: the preview runs with its wall clock frozen at 2026-03-15 10:10:42 UTC (never
/// today; `frozenClockEnvironment`), TZ=UTC, the pinned fontconfig file of the
/// WidgetGraphics tests, and a seeded app-group container. Snapshots are compared (the system
/// bundle's placeholders and clock: its other snapshots read this machine's CPU and memory).
///
/// Each golden was looked at by a person before it was committed. To re-record after an
/// intended change: `WIDGETHOST_UPDATE_GOLDENS=1 swift test --skip-build --filter
/// PictureGoldenTests`, then look at every changed picture.
@Suite struct PictureGoldenTests {
    static let goldenDir = TestPaths.repoRoot + "/Tests/IntegrationTests/Fixtures/pictures"
    static let fontsConf = TestPaths.repoRoot + "/Tests/WidgetGraphicsTests/Fixtures/fonts.conf"
    /// 2026-03-15 10:10:42 UTC.
    static let frozenClock = Date(timeIntervalSince1970: 1_773_569_442)
    /// 2026-03-15 00:00:00 UTC.
    static let frozenDay = 1_773_532_800.0
    static let threshold = 40
    /// Pixels allowed to differ: 0.2 % of the picture.
    static func maxDiffering(_ image: PixelImage) -> Int { image.width * image.height / 500 }

    @Test(arguments: TestPaths.exampleProducts + [TestPaths.xcodeStyleProduct])
    func picturesMatchTheGoldens(product: String) throws {
        let dir = TempDir(); defer { dir.remove() }
        let containers = dir.path + "/containers", out = dir.path + "/png"
        mkdir(containers, 0o755)
        if product == "CardioBotWidgets" { try seedCardioBot(containers) }
        try Self.previewPNGs(product, into: out, in: dir, containers: containers)
        // Snapshots; for the system bundle its placeholders and the clock's snapshots (the other
        // snapshots read this machine; the battery widget exists only where there is a battery).
        func picked(_ f: String) -> Bool {
            guard product == "SystemWidgets" else { return f.hasSuffix("-snapshot.png") }
            return (f.hasSuffix("-placeholder.png") && !f.hasPrefix("battery-")) || (f.hasPrefix("clock-") && f.hasSuffix("-snapshot.png"))
        }
        try Self.compare(listDirectory(out).filter(picked).sorted(), in: out, with: Self.goldenDir + "/" + product)
    }

    /// `widgethost preview <product> --png out --scale 2` and `extra` arguments, on the frozen
    /// clock with the pinned fonts; `containers` is the app-group root (a fresh one by default).
    static func previewPNGs(_ product: String, into out: String, in dir: TempDir, containers: String? = nil,
                            extra: [String] = [], environment: [String: String] = [:]) throws {
        let r = run("/usr/bin/timeout", ["300", TestPaths.widgethost, "preview", TestPaths.plugin(product), "--png", out, "--scale", "2"] + extra,
                    environment: try frozenClockEnvironment(at: frozenClock).merging(
                        ["FONTCONFIG_FILE": fontsConf, "WIDGETHOST_CONTAINERS": containers ?? dir.path + "/containers",
                         "XDG_CACHE_HOME": dir.path + "/cache"]) { $1 }.merging(environment) { $1 })
        #expect(r.status == 0, "preview \(product) \(extra) failed: \(r.stdout.suffix(2000)) \(r.stderr.suffix(2000))")
    }

    /// `produced` (names in `out`) against the goldens in `goldens`, with the tolerance; with
    /// `WIDGETHOST_UPDATE_GOLDENS` set, records them instead.
    static func compare(_ produced: [String], in out: String, with goldens: String) throws {
        #expect(!produced.isEmpty)
        if getenv("WIDGETHOST_UPDATE_GOLDENS") != nil {
            _ = run("/bin/mkdir", ["-p", goldens])
            for f in listDirectory(goldens) { unlink(goldens + "/" + f) }
            for f in produced { _ = run("/bin/cp", [out + "/" + f, goldens + "/" + f]) }
            return
        }
        #expect(listDirectory(goldens).sorted() == produced, "the set of pictures changed")
        for f in produced {
            let got = try #require(readBytes(out + "/" + f).flatMap(PixelImage.decodePNG), "cannot read \(f)")
            guard let golden = readBytes(goldens + "/" + f).flatMap(PixelImage.decodePNG) else {
                Issue.record("no golden \(goldens)/\(f)")
                continue
            }
            let differing = got.differingPixels(from: golden, threshold: threshold)
            #expect(differing <= maxDiffering(golden), "\(goldens)/\(f): \(differing) pixels differ (allowed \(Self.maxDiffering(golden)))")
        }
    }

    @Test func previewWritesSVGAndASheetAndReportsAMissingRenderer() throws {
        let dir = TempDir(); defer { dir.remove() }
        let plugin = TestPaths.plugin("StatsWidget")
        let r = run(TestPaths.widgethost, ["preview", plugin, "--svg", dir.path + "/svg", "--family", "systemSmall", "--scale", "1"],
                    environment: ["FONTCONFIG_FILE": Self.fontsConf, "XDG_CACHE_HOME": dir.path + "/cache"])
        #expect(r.status == 0, "\(r.stdout) \(r.stderr)")
        let files = listDirectory(dir.path + "/svg").sorted()
        #expect(files.contains("com.example.StatsWidget-systemSmall-snapshot.svg"))
        #expect(files.contains("com.example.stats-sheet.svg"))
        #expect(files.filter { $0.hasSuffix(".svg") }.count == 4)  // placeholder, snapshot, one timeline entry, sheet
        let svg = String(decoding: readBytes(dir.path + "/svg/com.example.StatsWidget-systemSmall-snapshot.svg") ?? [], as: UTF8.self)
        #expect(svg.contains("<svg") && svg.contains("width=\"158"))

        let bad = run(TestPaths.widgethost, ["preview", plugin, "--png", dir.path + "/png"], environment: ["WIDGETHOST_RENDER_EXECUTABLE": "/nonexistent/render"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("preview: cannot run /nonexistent/render"))
        let scale = run(TestPaths.widgethost, ["preview", plugin, "--png", dir.path + "/png", "--scale", "5"])
        #expect(scale.status != 0 && scale.stderr.contains("--scale must be 1, 2 or 3"))
    }

    /// Ten vigorous minutes at 07:00 and five moderate ones at 09:30 on the frozen day.
    func seedCardioBot(_ containers: String) throws {
        setenv("WIDGETHOST_CONTAINERS", containers, 1)
        defer { unsetenv("WIDGETHOST_CONTAINERS") }
        let defaults = try #require(SharedDefaults(suiteName: "group.com.cardiobot"))
        var samples: [JSONValue] = []
        for m in 0..<10 { samples.append(.array([.number(Self.frozenDay + 7 * 3600 + Double(m) * 60), .number(160)])) }
        for m in 0..<5 { samples.append(.array([.number(Self.frozenDay + 9.5 * 3600 + Double(m) * 60), .number(125)])) }
        defaults.set(.array(samples), forKey: "heartRates")
    }
}

/// Names in `path` (no `.`/`..`); empty when it cannot be read.
func listDirectory(_ path: String) -> [String] {
    guard let d = opendir(path) else { return [] }
    defer { closedir(d) }
    var out: [String] = []
    while let e = readdir(d) {
        let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { out.append(name) }
    }
    return out
}

/// The bytes of a file; nil when it cannot be read.
func readBytes(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        guard n >= 0 else { return nil }
        if n == 0 { return out }
        out.append(contentsOf: buf[0..<n])
    }
}
