import FoundationEssentials
import OpenWidgetKit
import Testing
@testable import WidgetGraphics
import WidgetLayout

/// Issue 28 items 6 and 10 in pixels: linear gauges and progress views with their labels
/// above and values under the bar, `.blur(radius:)`, `EllipticalGradient`, the accented
/// rendering mode (iOS 18's tinted Home Screen) and right-to-left layout. Goldens in
/// `Fixtures/accent/` (scale 2; each looked at before it was committed; re-record with
/// `WIDGETHOST_UPDATE_GOLDENS=1 swift test --skip-build --filter AccentedAndEffectsPictureTests`),
/// and pixel checks of what each must do whatever the golden.
private let fixedNow = Date(timeIntervalSince1970: 1_773_569_400)  // 2026-03-15 10:10:00 UTC

private func evaluate<V: View>(_ v: V) -> ViewNode { ViewEvaluator.evaluate(v, environment: EnvironmentValues()) }

/// A widget root as the SDK sends it: the family's content margins on the root.
private func widget<V: View>(_ v: V, _ family: WidgetFamily) -> ViewNode {
    var n = evaluate(v)
    var m = n.mods
    m.contentMargins = family.defaultContentMargins
    n.modifiers = m
    return n
}

private struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let family: WidgetFamily
    var tint: StyleSpec?
    let tree: @Sendable () -> ViewNode
    var testDescription: String { name }
}

private let habit: @Sendable () -> ViewNode = {
    widget(VStack(alignment: .leading, spacing: 6) {
        Image(systemName: "drop.fill").font(.title2).foregroundStyle(.blue).widgetAccentable()
        Text("6 of 8").font(.title2).bold().widgetAccentable()
        Text("glasses today").font(.caption).foregroundStyle(.secondary)
        ProgressView(value: 0.75).tint(.green)
    }.frame(maxWidth: .infinity, alignment: .leading).containerBackground(Color.yellow, for: .widget), .systemSmall)
}

private let cases: [Case] = [
    Case(name: "linear-gauges-systemMedium", family: .systemMedium) {
        widget(VStack(spacing: 12) {
            Gauge(value: 0.62) { Text("Battery") } currentValueLabel: { Text("62%") }
                minimumValueLabel: { Text("0") } maximumValueLabel: { Text("100") }
                .gaugeStyle(.linearCapacity).tint(.green)
            ProgressView(value: 0.4) { Text("Downloading") } currentValueLabel: { Text("40 of 100 MB") }
        }.font(.caption), .systemMedium)
    },
    Case(name: "linear-gauge-accessoryRectangular", family: .accessoryRectangular) {
        widget(Gauge(value: 6200, in: 0...10_000) { Text("Steps") } currentValueLabel: { Text("6,200") }
            .gaugeStyle(.accessoryLinearCapacity), .accessoryRectangular)
    },
    Case(name: "blur-systemSmall", family: .systemSmall) {
        widget(VStack(spacing: 8) {
            Text("Sharp").font(.title2).bold()
            Text("Blurred").font(.title2).bold().blur(radius: 2)
            Circle().fill(Color.orange).frame(width: 44, height: 44).blur(radius: 6)
        }, .systemSmall)
    },
    Case(name: "elliptical-gradient-systemMedium", family: .systemMedium) {
        widget(ZStack {
            Rectangle().fill(EllipticalGradient(colors: [.yellow, .orange, .purple], endRadiusFraction: 0.5))
            Text("Elliptical").font(.title).bold().foregroundStyle(.white)
        }, .systemMedium)
    },
    Case(name: "habit-systemSmall", family: .systemSmall, tree: habit),
    Case(name: "habit-accented-orange-systemSmall", family: .systemSmall, tint: StyleSpec(name: "orange"), tree: habit),
    // Wrapped paragraphs right to left: each line at the right edge of its text, Arabic and
    // English alike (the alignment is the layout's, not Pango's paragraph direction).
    Case(name: "rtl-wrapped-systemSmall", family: .systemSmall) {
        widget(VStack(alignment: .leading) {
            Text("مرحبا بالعالم مرحبا بالعالم كثيرا").frame(width: 110).background(Color.red.opacity(0.2))
            Text("Hello world hello world again").frame(width: 110).background(Color.blue.opacity(0.2))
        }.environment(\.layoutDirection, .rightToLeft), .systemSmall)
    },
    Case(name: "rtl-systemMedium", family: .systemMedium) {
        widget(VStack(spacing: 0) {
            HStack(alignment: .top) {
                VStack(alignment: .leading, spacing: 4) {
                    Label("שלום", systemImage: "sun.max.fill").font(.headline)
                    Text("مرحبا بالعالم").font(.subheadline)
                    Text("Leading").font(.caption).foregroundStyle(.secondary)
                }
                Spacer()
                Text("21°").font(.largeTitle)
            }.padding(.leading, 8)
            Spacer()
            ProgressView(value: 0.3) { Text("Progress") }
        }.environment(\.layoutDirection, .rightToLeft), .systemMedium)
    },
]

@Test(arguments: cases)
private func picturesMatchTheirGoldens(_ c: Case) throws {
    _ = PinnedFonts.configured
    // The accessory families on the stand-in wallpaper, so their white shows.
    let options = PictureOptions(scale: 2, now: fixedNow, accessoryBackdrop: c.family.isAccessory, tint: c.tint)
    let png = try PictureRenderer().render(c.tree(), family: c.family, format: .png, options: options).bytes
    try GoldenFiles.check(png, folder: "accent", name: c.name)
}

/// The pixel at point (`x`, `y`) of a scale-1 picture as (r, g, b, a) bytes.
private func pixel(_ img: PixelImage, _ x: Int, _ y: Int) -> (Int, Int, Int, Int) {
    let p = img.pixels[y * img.width + x]
    return (Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF), Int(p >> 24))
}

private func draw(_ root: ViewNode, _ family: WidgetFamily = .systemSmall, tint: StyleSpec? = nil) throws -> PixelImage {
    _ = PinnedFonts.configured
    let options = PictureOptions(scale: 1, now: fixedNow, tint: tint)
    return try #require(PixelImage.decodePNG(try PictureRenderer().render(root, family: family, format: .png, options: options).bytes))
}

@Test func accentedModeDrawsAccentableContentInTheTintTheRestInItsToneOnTheBackdrop() throws {
    // Two 60 pt squares side by side, the left accentable; a red container background.
    let root = widget(HStack(spacing: 0) {
        Rectangle().fill(Color.blue).frame(width: 60, height: 60).widgetAccentable()
        Rectangle().fill(Color.green).frame(width: 60, height: 60)
    }.containerBackground(Color.red, for: .widget), .systemSmall)
    let full = try draw(root)
    #expect(pixel(full, 49, 79) == (0x00, 0x7A, 0xFF, 255))
    #expect(pixel(full, 109, 79) == (0x34, 0xC7, 0x59, 255))
    #expect(pixel(full, 79, 10) == (0xFF, 0x3B, 0x30, 255))
    let accented = try draw(root, tint: StyleSpec(rgba: [1, 128.0 / 255, 0, 1]))
    // The tint (255, 128, 0); the tone: white with a quarter of it (255, 224, 191); the
    // backdrop: 0.08 + 0.17 × the tint (64, 42, 20) instead of the red background.
    #expect(pixel(accented, 49, 79) == (255, 128, 0, 255))
    #expect(pixel(accented, 109, 79) == (255, 224, 191, 255))
    #expect(pixel(accented, 79, 10) == (64, 42, 20, 255))
    // The accessory families keep the Lock Screen's monochrome whatever the tint.
    let lock = widget(Rectangle().fill(Color.blue).widgetAccentable(), .accessoryRectangular)
    #expect(try draw(lock, .accessoryRectangular, tint: StyleSpec(name: "orange")).pixels == draw(lock, .accessoryRectangular).pixels)
}

@Test func blurSpreadsAViewsPixelsBeyondItsEdgesAndSoftensThem() throws {
    // A 40 pt black square in the middle of a white small widget (158 pt): sharp, the pixel
    // 4 pt outside its edge is white and the one inside black; blurred by 4 pt, both are grey.
    func square(_ blur: Double?) -> ViewNode {
        var n = evaluate(Rectangle().fill(Color.black).frame(width: 40, height: 40))
        if let blur { var m = n.mods; m.other = ["blur": .number(blur)]; n.modifiers = m }
        return n
    }
    let sharp = try draw(square(nil)), soft = try draw(square(4))
    #expect(pixel(sharp, 79 - 24, 79) == (255, 255, 255, 255))
    #expect(pixel(sharp, 79 - 16, 79) == (0, 0, 0, 255))
    let outside = pixel(soft, 79 - 24, 79), inside = pixel(soft, 79 - 16, 79)
    #expect(outside.0 > 100 && outside.0 < 250, "\(outside)")
    #expect(inside.0 > 5 && inside.0 < 150, "\(inside)")
    // The middle stays black, and 3 σ beyond the edge (12 pt) nothing reaches.
    #expect(pixel(soft, 79, 79) == (0, 0, 0, 255))
    #expect(pixel(soft, 79 - 20 - 14, 79) == (255, 255, 255, 255))
    // A radius of 0 is no blur.
    #expect(try draw(square(0)).pixels == sharp.pixels)
}

@Test func anEllipticalGradientStretchesWithItsBox() throws {
    // White at the centre to black at the ellipse inscribed in a medium widget (338 × 158):
    // the points halfway to the edge along each axis are the same grey, though 84.5 and
    // 39.5 pt from the centre.
    let root = evaluate(Rectangle().fill(EllipticalGradient(colors: [.white, .black])))
    let img = try draw(root, .systemMedium)
    let across = pixel(img, 169 + 84, 79), down = pixel(img, 169, 79 + 39)
    #expect(abs(across.0 - down.0) <= 6, "\(across) \(down)")
    #expect(across.0 > 100 && across.0 < 160, "\(across)")
    #expect(pixel(img, 169, 79).0 > 245)
}

@Test func aRightToLeftBarFillsFromTheRight() throws {
    func bar(_ direction: LayoutDirection) -> ViewNode {
        widget(ProgressView(value: 0.25).tint(.red).environment(\.layoutDirection, direction), .systemSmall)
    }
    // The bar spans the content (16…142 pt) at mid-height; a quarter is filled.
    let ltr = try draw(bar(.leftToRight)), rtl = try draw(bar(.rightToLeft))
    func red(_ img: PixelImage, _ x: Int) -> Bool { let p = pixel(img, x, 79); return p.0 > 200 && p.1 < 120 }
    #expect(red(ltr, 20) && !red(ltr, 138))
    #expect(red(rtl, 138) && !red(rtl, 20))
}

@Test func theContentMarginsOfARightToLeftRootSwapTheirLeadingAndTrailing() {
    var root = ViewNode(kind: .text)
    var m = Modifiers()
    m.contentMargins = EdgeInsetsSpec(top: 1, leading: 2, bottom: 3, trailing: 4)
    m.other = [LayoutDirection.modifierKey: .string("rightToLeft")]
    root.modifiers = m
    #expect(PictureRenderer.contentMargins(root) == Insets(top: 1, leading: 4, bottom: 3, trailing: 2))
    m.other = nil
    root.modifiers = m
    #expect(PictureRenderer.contentMargins(root) == Insets(top: 1, leading: 2, bottom: 3, trailing: 4))
}
