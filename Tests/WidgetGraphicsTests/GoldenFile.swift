import FoundationEssentials
import Testing
@testable import WidgetGraphics
#if canImport(Glibc)
import Glibc
#endif

/// A PNG compared with its golden `<dir>/<name>.png` with the example goldens' tolerance (40 per
/// channel, 0.2 % of the pixels), or written there when `WIDGETHOST_UPDATE_GOLDENS` is set (then
/// look at every changed picture before committing it).
func expectMatchesGolden(_ png: [UInt8], dir: String, name: String) throws {
    let path = dir + "/" + name + ".png"
    if getenv("WIDGETHOST_UPDATE_GOLDENS") != nil {
        mkdir(dir, 0o755)
        let f = try #require(fopen(path, "wb"))
        fwrite(png, 1, png.count, f)
        fclose(f)
        return
    }
    let got = try #require(PixelImage.decodePNG(png))
    let golden = try #require(goldenBytes(path).flatMap(PixelImage.decodePNG), "no golden \(path)")
    let differing = got.differingPixels(from: golden, threshold: 40)
    #expect(differing <= golden.width * golden.height / 500, "\(name): \(differing) pixels differ")
}

/// The bytes of a golden file, nil when it cannot be read.
func goldenBytes(_ path: String) -> [UInt8]? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = fread(&buf, 1, buf.count, f)
        if n <= 0 { break }
        out.append(contentsOf: buf[0..<n])
    }
    return out
}
