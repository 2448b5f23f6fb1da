import FoundationEssentials
import OpenWidgetKit
import Testing
@testable import WidgetGraphics
import WidgetLayout

/// Buttons in their tint and bezels, placeholders that keep shapes and colours: systemSmall,
/// light, scale 1 (158 × 158 pixels, the content centred at (79, 79)).
private let fixedNow = Date(timeIntervalSince1970: 1_773_569_400)  // 2026-03-15 10:10:00 UTC

private func smallImage(_ root: ViewNode, redact: Bool? = nil) throws -> PixelImage {
    _ = PinnedFonts.configured
    let options = PictureOptions(scale: 1, now: fixedNow, redact: redact)
    return try #require(PixelImage.decodePNG(PictureRenderer().render(root, family: .systemSmall, format: .png, options: options).bytes))
}

private func rgb(_ image: PixelImage, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
    let px = image.pixels[y * image.width + x]
    return (Int((px >> 16) & 0xFF), Int((px >> 8) & 0xFF), Int(px & 0xFF))
}

/// A button node of `style` around `label`, tinted `tint` (nil: none).
private func button(_ style: String?, tint: String?, _ label: some View) -> ViewNode {
    var b = ViewNode(kind: .button, children: [ViewEvaluator.evaluate(label, environment: EnvironmentValues())])
    b.style = style
    if let tint {
        var m = Modifiers()
        m.tint = StyleSpec(name: tint)
        b.modifiers = m
    }
    return b
}

@Test func aButtonsLabelTakesItsTint() throws {
    // InteractiveHabit's "Log" under .tint(.green): a block of heavy glyphs, its centre green.
    let label = Rectangle().frame(width: 40, height: 20)
    for style in [nil, "automatic", "borderless", "bordered"] as [String?] {
        let c = rgb(try smallImage(button(style, tint: "green", label)), 79, 79)
        #expect(c.g > 150 && c.r < 100 && c.b < 120, "\(style ?? "nil"): \(c)")
    }
    // Without a tint, the accent (blue); .plain keeps the foreground (black).
    let accent = rgb(try smallImage(button(nil, tint: nil, label)), 79, 79)
    #expect(accent.b > 200 && accent.r < 60)
    let plain = rgb(try smallImage(button("plain", tint: "green", label)), 79, 79)
    #expect(plain.r < 30 && plain.g < 30 && plain.b < 30)
}

@Test func borderedButtonsDrawTheirBezel() throws {
    // A 40 × 20 label in a 64 × 34 bezel (12 and 7 pt of padding): x 47…111, y 62…96.
    let label = Color.clear.frame(width: 40, height: 20)
    let prominent = try smallImage(button("borderedProminent", tint: "red", label))
    let p = rgb(prominent, 52, 79)
    #expect(p.r > 230 && p.g < 80 && p.b < 80)
    #expect(rgb(prominent, 40, 79) == (255, 255, 255))  // outside the bezel
    let bordered = rgb(try smallImage(button("bordered", tint: "red", label)), 52, 79)
    #expect(bordered.r > 240 && bordered.g > 190 && bordered.g < 235)  // red at 15 % over white
}

@Test func placeholdersKeepShapesAndColours() throws {
    let v = ViewEvaluator.evaluate(VStack {
        Circle().fill(.blue).frame(width: 50, height: 50)
        Text("Steps").font(.title)
    }, environment: EnvironmentValues())
    let redacted = try smallImage(v, redact: true)
    let ring = rgb(redacted, 79, 60)
    #expect(ring.b > 200 && ring.r < 80, "\(ring)")
    // The text is still a bar, not glyphs: the picture differs from the unredacted one.
    #expect(try smallImage(v, redact: false).differingPixels(from: redacted, threshold: 32) > 100)
}
