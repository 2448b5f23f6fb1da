import FoundationEssentials
import OpenWidgetKit
import Testing
@testable import WidgetGraphics
import WidgetLayout
import CCairo

/// JPEG images in the view tree (album art, photos in asset catalogs): the header read in pure
/// Swift (sizes from the SOF marker, EXIF orientation, what is refused and why), the wire
/// (`ImageVariant.jpeg`, the same limits as a PNG), and the drawing (libjpeg in WidgetGraphics:
/// baseline, progressive, grey, EXIF-turned; damaged files draw the placeholder and never crash).
///
/// The fixtures in `Fixtures/jpeg/` were made once with ImageMagick 6.9 (`convert`), and looked
/// at: `cover.jpg` (96×96, a yellow disc with a navy centre on a navy-to-pink gradient, a white
/// bar at the bottom left), `cover-progressive.jpg` (the same, progressive), `gray.jpg` (the same
/// in grey), `cmyk.jpg` (the same in CMYK), `landscape.jpg` (96×64, green-to-yellow, a red
/// rectangle top left, a white disc bottom right) and `landscape-exif6.jpg` (that picture stored
/// turned a quarter anticlockwise, 64×96, with EXIF orientation 6 so it is shown upright).
/// The golden `Fixtures/jpeg/cover-systemSmall.png` is `cover.jpg` as a widget's art.
private let fixedNow = Date(timeIntervalSince1970: 1_773_569_400)  // 2026-03-15 10:10:00 UTC

private func fixture(_ name: String) throws -> [UInt8] {
    try #require(GoldenFiles.bytes(GoldenFiles.directory("jpeg") + "/" + name), "no fixture \(name)")
}

/// `bytes` with the frame header's byte at `offset` past the SOF marker's length set to `value`.
private func patchingFrame(_ bytes: [UInt8], marker: UInt8? = nil, offset: Int? = nil, value: UInt8 = 0) -> [UInt8] {
    var b = bytes
    let sof = (2..<(b.count - 1)).first { b[$0] == 0xFF && (b[$0 + 1] == 0xC0 || b[$0 + 1] == 0xC2) }!
    if let marker { b[sof + 1] = marker }
    if let offset { b[sof + 4 + offset] = value }
    return b
}

@Suite struct JPEGHeaderTests {
    @Test func sizesComeFromTheFrameHeader() throws {
        let cover = try JPEGHeader.read(try fixture("cover.jpg"))
        #expect((cover.width, cover.height, cover.progressive, cover.orientation) == (96, 96, false, 1))
        let progressive = try JPEGHeader.read(try fixture("cover-progressive.jpg"))
        #expect((progressive.width, progressive.height, progressive.progressive) == (96, 96, true))
        let gray = try JPEGHeader.read(try fixture("gray.jpg"))
        #expect((gray.width, gray.height) == (96, 96))
        let landscape = try JPEGHeader.read(try fixture("landscape.jpg"))
        #expect((landscape.width, landscape.height) == (96, 64))
    }

    @Test func exifOrientationTurnsTheSize() throws {
        let turned = try JPEGHeader.read(try fixture("landscape-exif6.jpg"))
        #expect((turned.storedWidth, turned.storedHeight, turned.orientation) == (64, 96, 6))
        #expect((turned.width, turned.height) == (96, 64), "shown upright, as iOS shows it")
    }

    @Test func unsupportedKindsAreRefusedWithAReason() throws {
        let cover = try fixture("cover.jpg")
        #expect(throws: JPEGHeader.Refusal.unsupported("CMYK (4 components); save it as RGB")) { try JPEGHeader.read(try fixture("cmyk.jpg")) }
        #expect(throws: JPEGHeader.Refusal.unsupported("12-bit samples (only 8-bit are drawn)")) {
            try JPEGHeader.read(patchingFrame(cover, offset: 0, value: 12))
        }
        #expect(throws: JPEGHeader.Refusal.unsupported("arithmetic coding (SOF9)")) { try JPEGHeader.read(patchingFrame(cover, marker: 0xC9)) }
        #expect(throws: JPEGHeader.Refusal.unsupported("lossless (SOF3)")) { try JPEGHeader.read(patchingFrame(cover, marker: 0xC3)) }
        #expect(throws: JPEGHeader.Refusal.notJPEG) { try JPEGHeader.read(Array("not a jpeg".utf8)) }
        #expect(throws: JPEGHeader.Refusal.self) { try JPEGHeader.read(patchingFrame(patchingFrame(cover, offset: 1, value: 0), offset: 2, value: 0)) }  // height 0
    }

    /// Every prefix of a real file cut before its frame header, and random bytes after an SOI,
    /// are refused (never a crash, never a size).
    @Test func truncatedAndGarbageHeadersAreRefused() throws {
        let cover = try fixture("cover.jpg")
        let sof = (2..<(cover.count - 1)).first { cover[$0] == 0xFF && cover[$0 + 1] == 0xC0 }!
        for n in 0..<(sof + 10) {
            #expect(throws: JPEGHeader.Refusal.self) { try JPEGHeader.read(cover.prefix(n)) }
        }
        var rng = SplitMix(seed: 29)
        for _ in 0..<500 {
            let garbage = [0xFF, 0xD8, 0xFF] + (0..<Int(rng.next() % 200)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            if let h = try? JPEGHeader.read(garbage) { #expect(h.width > 0 && h.height > 0) }
        }
    }

    @Test func aVariantOfAFileHoldsTheLimits() throws {
        let cover = try fixture("cover.jpg")
        let v = try ImageVariant(file: Data(cover), scale: 2)
        #expect(v.jpeg == Data(cover).base64EncodedString() && v.png == nil && (v.width, v.height) == (96, 96))
        // A header claiming 4097 pixels a side (0x1001).
        let wide = patchingFrame(patchingFrame(cover, offset: 3, value: 0x10), offset: 4, value: 0x01)
        #expect(throws: ImageVariant.FileRefusal.self) { try ImageVariant(file: Data(wide), scale: 1) }
        do {
            _ = try ImageVariant(file: Data(wide), scale: 1)
        } catch {
            #expect(error.description.hasPrefix("is 4097×96 pixels"), "\(error)")
        }
        #expect(throws: ImageVariant.FileRefusal.self) { try ImageVariant(file: Data(cover + [UInt8](repeating: 0, count: WireValidation.maxImageBase64Bytes)), scale: 1) }
        #expect(throws: ImageVariant.FileRefusal.self) { try ImageVariant(file: Data(try fixture("cmyk.jpg")), scale: 1) }
        #expect(UIImage(data: Data(cover)) != nil)
        #expect(UIImage(data: Data(try fixture("cmyk.jpg"))) == nil)
        #expect(UIImage(data: Data("garbage".utf8)) == nil)
    }

    /// The wire: a JPEG variant is written and read back; its base64 counts against the same limit.
    @Test func aJPEGVariantCrossesTheWire() throws {
        let cover = try fixture("cover.jpg")
        var image = ViewNode(kind: .image)
        image.asset = ImageAsset(name: "cover", variants: [try ImageVariant(file: Data(cover), scale: 1)])
        let response = WireResponse(ok: true, entries: [WireEntry(date: fixedNow, view: image)])
        let written = try #require(WireJSONWriter.response(response))
        #expect(String(decoding: written, as: UTF8.self).contains(#""jpeg":"/9j/"#))
        #expect(try WireCodec.decodeResponse(written) == response)
        var huge = image
        huge.asset = ImageAsset(name: "cover", variants: [ImageVariant(scale: 1, width: 96, height: 96,
                                                                       jpeg: String(repeating: "A", count: WireValidation.maxImageBase64Bytes + 4))])
        #expect(WireValidation.problem(in: [WireEntry(date: fixedNow, view: huge)])?.contains("jpeg bytes") == true)
        // A tree of before JPEGs (only `png`) still reads.
        let old = #"{"entries":[{"date":1773569400,"view":{"asset":{"name":"d","variants":[{"height":1,"png":"iVBORw0KGgo=","scale":1,"width":1}]},"kind":"image"}}],"ok":true}"#
        let variant = try #require(WireCodec.decodeResponse(Data(old.utf8)).entries?.first?.view.asset?.variants.first)
        #expect(variant.png == "iVBORw0KGgo=" && variant.jpeg == nil)
    }
}

/// A tiny deterministic generator for the garbage (SplitMix64).
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct JPEGDrawingTests {
    private func asset(_ bytes: [UInt8], name: String = "art") throws -> ImageAsset {
        ImageAsset(name: name, variants: [try ImageVariant(file: Data(bytes), scale: 1)])
    }

    private func pixels(_ asset: ImageAsset) -> PixelImage? {
        guard let image = AssetImage(asset, scale: 1) else { return nil }
        defer { image.release() }
        let w = Int(cairo_image_surface_get_width(image.surface)), h = Int(cairo_image_surface_get_height(image.surface))
        let stride = Int(cairo_image_surface_get_stride(image.surface))
        cairo_surface_flush(image.surface)
        guard let data = cairo_image_surface_get_data(image.surface) else { return nil }
        let pixels = (0..<(w * h)).map { UnsafeRawPointer(data + ($0 / w) * stride).loadUnaligned(fromByteOffset: ($0 % w) * 4, as: UInt32.self) }
        return PixelImage(width: w, height: h, pixels: pixels)
    }

    @Test func baselineProgressiveAndGreyDecode() throws {
        let cover = try #require(pixels(try asset(try fixture("cover.jpg"))))
        #expect((cover.width, cover.height) == (96, 96))
        // The disc's yellow at its rim, the navy centre, the white bar: where the fixture has them.
        func rgb(_ p: PixelImage, _ x: Int, _ y: Int) -> (Int, Int, Int) {
            let v = p.pixels[y * p.width + x]
            return (Int(v >> 16 & 0xFF), Int(v >> 8 & 0xFF), Int(v & 0xFF))
        }
        let yellow = rgb(cover, 48, 28), navy = rgb(cover, 48, 48), white = rgb(cover, 20, 84)
        #expect(yellow.0 > 220 && yellow.1 > 180 && yellow.2 < 120, "\(yellow)")
        #expect(navy.0 < 60 && navy.2 > 100, "\(navy)")
        #expect(white.0 > 230 && white.1 > 230 && white.2 > 230, "\(white)")
        let progressive = try #require(pixels(try asset(try fixture("cover-progressive.jpg"))))
        // Re-encoded from cover.jpg, so not bit-equal: the same picture within a few levels.
        #expect(progressive.differingPixels(from: cover, threshold: 24) <= 10)
        let gray = try #require(pixels(try asset(try fixture("gray.jpg"))))
        let g = rgb(gray, 48, 28)
        #expect(g.0 == g.1 && g.1 == g.2 && g.0 > 150, "\(g)")
    }

    @Test func exifOrientationIsHonoured() throws {
        let upright = try #require(pixels(try asset(try fixture("landscape.jpg"))))
        let turned = try #require(pixels(try asset(try fixture("landscape-exif6.jpg"))))
        #expect((turned.width, turned.height) == (96, 64))
        #expect(turned.differingPixels(from: upright, threshold: 40) <= 96 * 64 / 100)
        // Drawn as stored (not turned), the size alone would differ; the red rectangle is top left.
        let red = turned.pixels[10 * 96 + 10]
        #expect(red >> 16 & 0xFF > 150 && red >> 8 & 0xFF < 90, "\(String(red, radix: 16))")
    }

    /// A damaged file draws nothing: every truncation of a real file past its header, bytes
    /// flipped in its data, a tree that lies about the size, and CMYK. No crash; the placeholder.
    @Test func damagedJPEGsDrawNothing() throws {
        let cover = try fixture("cover.jpg")
        let sof = (2..<(cover.count - 1)).first { cover[$0] == 0xFF && cover[$0 + 1] == 0xC0 }!
        for n in stride(from: sof + 20, to: cover.count - 2, by: 7) {
            var a = try asset(cover)
            a.variants[0].jpeg = Data(cover.prefix(n)).base64EncodedString()
            #expect(pixels(a) == nil, "cut at \(n) of \(cover.count)")
        }
        var rng = SplitMix(seed: 2026)
        var drawn = 0
        for _ in 0..<60 {
            var bytes = cover
            for _ in 0..<8 { bytes[sof + 200 + Int(rng.next() % UInt64(cover.count - sof - 202))] = UInt8(truncatingIfNeeded: rng.next()) }
            var a = try asset(cover)
            a.variants[0].jpeg = Data(bytes).base64EncodedString()
            if pixels(a) != nil { drawn += 1 }
        }
        #expect(drawn < 60, "flipped bytes in the entropy-coded data are noticed by libjpeg in most files")
        var lying = try asset(cover)
        lying.variants[0].width = 48; lying.variants[0].height = 48
        #expect(pixels(lying) == nil)
        var cmyk = try asset(cover)
        cmyk.variants[0].jpeg = Data(try fixture("cmyk.jpg")).base64EncodedString()
        #expect(pixels(cmyk) == nil)
    }

    /// A JPEG cover as album art in a small widget: the golden, looked at before it was committed.
    @Test func aJPEGCoverIsDrawnInAWidget() throws {
        _ = PinnedFonts.configured
        let art = try #require(UIImage(data: Data(try fixture("cover.jpg"))))
        let view = VStack(alignment: .leading, spacing: 6) {
            Image(uiImage: art).resizable().frame(width: 72, height: 72).clipShape(RoundedRectangle(cornerRadius: 10))
            Text("Night Drive").font(.headline)
            Text("The Examples").font(.caption).foregroundStyle(.secondary)
        }.frame(maxWidth: .infinity, alignment: .leading)
        let tree = ViewEvaluator.evaluate(view, environment: EnvironmentValues())
        let png = try PictureRenderer().render(tree, family: .systemSmall, format: .png, options: PictureOptions(scale: 2, now: fixedNow)).bytes
        try GoldenFiles.check(png, folder: "jpeg", name: "cover-systemSmall")
    }
}
