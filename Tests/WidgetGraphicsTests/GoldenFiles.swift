import FoundationEssentials
import Testing
@testable import WidgetGraphics
#if canImport(Glibc)
import Glibc
#endif

/// The picture goldens' comparison, shared by the golden suites: a PNG is compared with
/// `<folder>/<name>.png` under `Fixtures/` with the example goldens' tolerance (40 per
/// channel, 0.2 % of the pixels); with `WIDGETHOST_UPDATE_GOLDENS` set it is written there
/// instead (look at every picture so written before committing it).
enum GoldenFiles {
    /// `Fixtures/<folder>` next to this file.
    static func directory(_ folder: String) -> String {
        let file = #filePath
        return String(file[..<file.lastIndex(of: "/")!]) + "/Fixtures/" + folder
    }

    /// Records or checks `png` as the golden `name` of `folder`.
    static func check(_ png: [UInt8], folder: String, name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let dir = directory(folder)
        let path = dir + "/" + name + ".png"
        if getenv("WIDGETHOST_UPDATE_GOLDENS") != nil {
            mkdir(dir, 0o755)
            let f = try #require(fopen(path, "wb"), sourceLocation: sourceLocation)
            fwrite(png, 1, png.count, f)
            fclose(f)
            return
        }
        let got = try #require(PixelImage.decodePNG(png), sourceLocation: sourceLocation)
        let golden = try #require(bytes(path).flatMap(PixelImage.decodePNG), "no golden \(path)", sourceLocation: sourceLocation)
        let differing = got.differingPixels(from: golden, threshold: 40)
        #expect(differing <= golden.width * golden.height / 500, "\(name): \(differing) pixels differ", sourceLocation: sourceLocation)
    }

    static func bytes(_ path: String) -> [UInt8]? {
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
}
