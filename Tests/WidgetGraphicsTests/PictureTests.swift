import FoundationEssentials
import OpenWidgetKit
import Testing
@testable import WidgetGraphics
import WidgetLayout
import CCairo

private let fixedNow = Date(timeIntervalSince1970: 1_773_569_400)  // 2026-03-15 10:10:00 UTC

private func tree<V: View>(_ view: V) -> ViewNode { ViewEvaluator.evaluate(view, environment: EnvironmentValues()) }

private func renderer() -> PictureRenderer {
    _ = PinnedFonts.configured
    return PictureRenderer()
}

@Test func pngHasTheFamilysPixelSize() throws {
    let r = renderer()
    for (family, scale) in [(WidgetFamily.systemSmall, 1.0), (.systemMedium, 2), (.accessoryCircular, 3)] {
        let p = try r.render(tree(Text("Hi")), family: family, format: .png, options: PictureOptions(scale: scale, now: fixedNow))
        let image = try #require(PixelImage.decodePNG(p.bytes))
        #expect(image.width == Int(family.nominalSize.width * scale))
        #expect(image.height == Int(family.nominalSize.height * scale))
    }
}

@Test func svgIsAnSVGDocument() throws {
    let p = try renderer().render(tree(VStack { Text("Hello"); Circle().trim(from: 0, to: 0.5).stroke(.red, lineWidth: 4) }),
                                  family: .systemSmall, format: .svg, options: PictureOptions(now: fixedNow))
    let s = String(decoding: p.bytes, as: UTF8.self)
    #expect(s.contains("<svg"))
    #expect(s.contains("</svg>"))
}

@Test func theSamePictureDrawnTwiceByOneRendererGivesTheSameSVGBytes() throws {
    // Cairo numbers surfaces per process; the render process is long-lived, and an SVG whose
    // bytes differ each time was rewritten (and a bar signalled) on every draw.
    let r = renderer()
    let view = tree(VStack { Text("Hello").shadow(radius: 2); Circle().trim(from: 0, to: 0.5).stroke(.red, lineWidth: 4) })
    let a = try r.render(view, family: .systemSmall, format: .svg, options: PictureOptions(now: fixedNow))
    _ = try r.render(view, family: .systemSmall, format: .png, options: PictureOptions(now: fixedNow))
    let b = try r.render(view, family: .systemSmall, format: .svg, options: PictureOptions(now: fixedNow))
    #expect(a.bytes == b.bytes)
    #expect(String(decoding: a.bytes, as: UTF8.self).contains("id=\"surface1\""))
}

@Test func svgIDsAreRenumberedWithTheirReferences() {
    let svg = Array(##"<g id="surface40"><use xlink:href="#image12"/><g id="image12"/><use xlink:href="#surface40"/><g id="surface7"/>surface9</g>"##.utf8)
    #expect(String(decoding: SVGStableIDs.renumber(svg), as: UTF8.self)
            == ##"<g id="surface1"><use xlink:href="#image1"/><g id="image1"/><use xlink:href="#surface1"/><g id="surface2"/>surface9</g>"##)
}

@Test func unmappedSymbolIsReportedAndDrawn() throws {
    let r = renderer()
    let blank = try r.render(tree(Color.clear), family: .systemSmall, format: .png, options: PictureOptions(now: fixedNow))
    let p = try r.render(tree(Image(systemName: "no.such.symbol").font(.largeTitle)), family: .systemSmall, format: .png, options: PictureOptions(now: fixedNow))
    #expect(p.unmappedSymbols == ["no.such.symbol"])
    let a = try #require(PixelImage.decodePNG(p.bytes)), b = try #require(PixelImage.decodePNG(blank.bytes))
    #expect(a.differingPixels(from: b, threshold: 16) > 100)
    let mapped = try r.render(tree(Image(systemName: "heart.fill")), family: .systemSmall, format: .png, options: PictureOptions(now: fixedNow))
    #expect(mapped.unmappedSymbols.isEmpty)
}

@Test func pangoMeasuresTextStyles() {
    _ = PinnedFonts.configured
    let t = PangoText()
    let body = t.measure("Hello", font: .body, width: nil, maxLines: nil)
    let large = t.measure("Hello", font: ResolvedFont(size: 34), width: nil, maxLines: nil)
    #expect(body.width > 20 && body.width < 60)
    #expect(large.width > body.width * 1.8)
    let cut = t.measure("Hello wonderful world of widgets", font: .body, width: 60, maxLines: 1)
    #expect(cut.truncated && cut.width <= 60)
    let wrapped = t.measure("Hello wonderful world of widgets", font: .body, width: 60, maxLines: nil)
    #expect(!wrapped.truncated && wrapped.height > body.height * 2.5)
    // Tabular figures: "1111" as wide as "8888" only with monospacedDigit.
    var tnum = ResolvedFont.body
    tnum.monospacedDigit = true
    #expect(t.measure("1111", font: tnum, width: nil, maxLines: nil).width == t.measure("8888", font: tnum, width: nil, maxLines: nil).width)
}

@Test func placeholderDrawsBarsNotGlyphs() throws {
    let r = renderer()
    let v = tree(Text("Redacted words here").font(.title))
    let shown = try PixelImage.decodePNG(r.render(v, family: .systemSmall, format: .png, options: PictureOptions(now: fixedNow, redact: false)).bytes)
    let bars = try PixelImage.decodePNG(r.render(v, family: .systemSmall, format: .png, options: PictureOptions(now: fixedNow, redact: true)).bytes)
    #expect(try #require(shown).differingPixels(from: try #require(bars), threshold: 32) > 500)
}

@Test func badInputStillDraws() throws {
    let r = renderer()
    var deep = ViewNode(kind: .text); deep.text = "leaf \u{202E}עברית 🙂"
    for i in 0..<3_000 { deep = ViewNode(kind: i % 2 == 0 ? .vstack : .zstack, children: [deep]) }
    var big = ViewNode(kind: .text); big.text = String(repeating: "wide ", count: 200_000)
    var nan = ViewNode(kind: .shape); nan.shape = ShapeInfo(type: "circle"); nan.shape?.lineWidth = .nan; nan.shape?.trimTo = .infinity
    var m = Modifiers(); m.frame = FrameSpec(width: .nan, height: -5, maxWidth: .infinity); m.rotation = .infinity; m.opacity = .nan
    nan.modifiers = m
    let many = ViewNode(kind: .hstack, children: (0..<10_000).map { i -> ViewNode in var t = ViewNode(kind: .image); t.symbol = "sym\(i)"; return t })
    for family in WidgetFamily.allCases {
        for root in [deep, big, nan, many] {
            for format in PictureFormat.allCases {
                let p = try r.render(root, family: family, format: format, options: PictureOptions(now: fixedNow))
                #expect(!p.bytes.isEmpty)
            }
        }
    }
}

@Test func linearGradientRunsFromStartToEnd() throws {
    let v = tree(Rectangle().fill(LinearGradient(colors: [.red, .blue], startPoint: .top, endPoint: .bottom)))
    let p = try renderer().render(v, family: .systemSmall, format: .png, options: PictureOptions(scale: 1, now: fixedNow))
    let image = try #require(PixelImage.decodePNG(p.bytes))
    func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let px = image.pixels[y * image.width + x]
        return (Int((px >> 16) & 0xFF), Int((px >> 8) & 0xFF), Int(px & 0xFF))
    }
    let top = rgb(79, 4), bottom = rgb(79, 153)
    #expect(top.0 > 200 && top.2 < 80)
    #expect(bottom.2 > 200 && bottom.0 < 80)
}

@Test func roundLineCapReachesPastTheTrimEnd() throws {
    func ring(_ cap: LineCap) throws -> PixelImage {
        let v = tree(Circle().trim(from: 0, to: 0.25).stroke(.black, style: StrokeStyle(lineWidth: 20, lineCap: cap)).padding(20))
        return try #require(PixelImage.decodePNG(renderer().render(v, family: .systemSmall, format: .png, options: PictureOptions(scale: 1, now: fixedNow)).bytes))
    }
    #expect(try ring(.round).differingPixels(from: ring(.butt), threshold: 64) > 200)
}

@Test func pngEncoderMatchesCairosWriter() throws {
    let surface = try #require(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 64, 48))
    defer { cairo_surface_destroy(surface) }
    let cr = try #require(cairo_create(surface))
    for i in 0..<12 {
        cairo_set_source_rgba(cr, Double(i) / 12, 0.5, 1 - Double(i) / 12, Double(i + 1) / 12)
        cairo_arc(cr, Double(i * 5), Double(i * 4), 9, 0, 6.3)
        cairo_fill(cr)
    }
    cairo_destroy(cr)
    let ours = try #require(PNGEncoder.encode(surface))
    let sink = ByteSink()
    cairo_surface_write_to_png_stream(surface, ByteSink.write, Unmanaged.passUnretained(sink).toOpaque())
    let a = try #require(PixelImage.decodePNG(ours)), b = try #require(PixelImage.decodePNG(sink.bytes))
    #expect(a.width == 64 && a.height == 48)
    #expect(a.differingPixels(from: b, threshold: 1) == 0)
}

@Test func darkAppearanceDrawsADarkWidgetWithLightText() throws {
    let v = tree(Text("████").font(.system(size: 40)).foregroundStyle(.primary))
    func rgb(_ appearance: Appearance) throws -> (background: UInt32, center: UInt32) {
        let p = try renderer().render(v, family: .systemSmall, format: .png, options: PictureOptions(scale: 1, appearance: appearance, now: fixedNow))
        let image = try #require(PixelImage.decodePNG(p.bytes))
        return (image.pixels[20 * image.width + 79] & 0xFFFFFF, image.pixels[79 * image.width + 79] & 0xFFFFFF)
    }
    let light = try rgb(.light), dark = try rgb(.dark)
    #expect(light.background == 0xFFFFFF)
    #expect(dark.background == 0x1C1C1E)
    #expect(light.center == 0x000000)
    #expect(dark.center == 0xFFFFFF)
}

@Test func timerProgressIsDrawnAtThePicturesDate() throws {
    // A countdown over 100 s, drawn 25 s in: the bar is filled to 25 % (counting up) or 75 %
    // (counting down) of its width, in the tint.
    let start = fixedNow.addingTimeInterval(-25), end = fixedNow.addingTimeInterval(75)
    func bar(countsDown: Bool) throws -> [Bool] {
        let v = tree(ProgressView(timerInterval: start...end, countsDown: countsDown).tint(.red).frame(width: 100))
        let p = try renderer().render(v, family: .systemSmall, format: .png, options: PictureOptions(scale: 1, now: fixedNow))
        let image = try #require(PixelImage.decodePNG(p.bytes))
        let y = (0..<image.height).first { y in (0..<image.width).contains { x in isRed(image.pixels[y * image.width + x]) } } ?? 0
        return (0..<10).map { i in isRed(image.pixels[(y + 1) * image.width + 29 + 5 + i * 10]) }
    }
    func isRed(_ px: UInt32) -> Bool { (px >> 16) & 0xFF > 200 && (px >> 8) & 0xFF < 120 && px & 0xFF < 120 }
    let up = try bar(countsDown: false), down = try bar(countsDown: true)
    #expect(up.filter { $0 }.count == 3 || up.filter { $0 }.count == 2)
    #expect(down.filter { $0 }.count == 7 || down.filter { $0 }.count == 8)
}

@Test func sfProTrackingBySize() {
    // Apple's table: 17 pt (body, headline) −0.43 pt, 34 pt (largeTitle) +0.40 pt, 11 pt +0.07 pt.
    #expect(abs(Tracking.sfPro(size: 17) * 17 - -0.442) < 0.001)
    #expect(abs(Tracking.sfPro(size: 34) * 34 - 0.408) < 0.001)
    #expect(abs(Tracking.sfPro(size: 11) * 11 - 0.066) < 0.001)
    #expect(Tracking.sfPro(size: 12) == 0 && Tracking.sfPro(size: 200) == 0 && Tracking.sfPro(size: .nan) == 0)
    #expect(abs(Tracking.sfPro(size: 16.5) - -0.023) < 1e-9)
    // Applied by the text engine: Habit's headline takes 92 pt in Inter (96 untracked), so it
    // fits the 94 pt a small widget with content margins and padding offers, as on iOS.
    _ = PinnedFonts.configured
    let t = PangoText()
    let headline = t.measure("Drink Water", font: ResolvedFont(size: 17, weight: 600), width: nil, maxLines: nil).width
    #expect(abs(headline - 92) <= 1, "\(headline)")  // ±1: Inter's version may round differently
    // A view's own tracking comes on top: 2 pt more between each of the 11 characters (Pango
    // trims it at the line's ends).
    let tracked = t.measure("Drink Water", font: ResolvedFont(size: 17, weight: 600, tracking: 2), width: nil, maxLines: nil).width
    #expect(abs(tracked - headline - 20) <= 1)
}

private func pixelImage(_ v: ViewNode, _ options: PictureOptions) throws -> PixelImage {
    try #require(PixelImage.decodePNG(renderer().render(v, family: .systemSmall, format: .png, options: options).bytes))
}

private func rgb(_ image: PixelImage, _ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
    let px = image.pixels[y * image.width + x]
    return (Int((px >> 16) & 0xFF), Int((px >> 8) & 0xFF), Int(px & 0xFF))
}

@Test func privacySensitiveTextIsRedactedOnlyForThePrivacyReason() throws {
    let v = tree(VStack { Text("Public"); Text("Balance 1 234 €").privacySensitive() }.font(.title))
    let shown = try pixelImage(v, PictureOptions(now: fixedNow))
    let locked = try pixelImage(v, PictureOptions(now: fixedNow, redactPrivate: true))
    let never = try pixelImage(v, PictureOptions(now: fixedNow, redact: false, redactPrivate: true))
    #expect(shown.differingPixels(from: locked, threshold: 32) > 300)
    #expect(shown.differingPixels(from: never, threshold: 32) == 0)
    // Only the sensitive line changes: the top half (the public line) is the same.
    let top = { (i: PixelImage) in Array(i.pixels.prefix(i.width * 130)) }
    #expect(top(shown) == top(locked))
}

@Test func materialsAreTranslucentFillsThickerMoreOpaque() throws {
    // Over a red widget background, at scale 1: the thin material lets more red through.
    func centre(_ m: Material) throws -> (r: Int, g: Int, b: Int) {
        let v = tree(Rectangle().fill(m).containerBackground(.red, for: .widget))
        return rgb(try pixelImage(v, PictureOptions(scale: 1, now: fixedNow)), 79, 79)
    }
    let thin = try centre(.ultraThinMaterial), thick = try centre(.ultraThickMaterial)
    #expect(thin.r > 240 && thin.g > 100 && thin.g < 150)  // 0.35 × 247 + 0.65 × 59
    #expect(thick.g > 200)
}

@Test func shadowDarkensBelowAndRightOfTheShape() throws {
    let square = Rectangle().fill(.white).frame(width: 40, height: 40)
    let plain = try pixelImage(tree(square.containerBackground(.gray, for: .widget)), PictureOptions(scale: 1, now: fixedNow))
    let shadowed = try pixelImage(tree(square.shadow(radius: 4, x: 6, y: 6).containerBackground(.gray, for: .widget)), PictureOptions(scale: 1, now: fixedNow))
    // The square spans 59…99; its shadow falls on 65…105, visible right of and under it.
    #expect(rgb(shadowed, 102, 82).r < rgb(plain, 102, 82).r - 20)
    #expect(rgb(shadowed, 82, 102).r < rgb(plain, 82, 102).r - 20)
    #expect(rgb(shadowed, 55, 82) == rgb(plain, 55, 82))  // nothing on the other side
    #expect(rgb(shadowed, 79, 79) == rgb(plain, 79, 79))  // the square itself is unchanged
    // A coloured shadow tints: red keeps the red channel, takes green and blue.
    let red = try pixelImage(tree(square.shadow(color: .red, radius: 0, x: 6, y: 6).containerBackground(.gray, for: .widget)), PictureOptions(scale: 1, now: fixedNow))
    #expect(rgb(red, 102, 82).r > 200 && rgb(red, 102, 82).g < 80)
}

@Test func radialAndAngularGradients() throws {
    // At scale 1 in a 158 pt square: radial red at the centre to blue 70 pt out.
    let radial = try pixelImage(tree(Rectangle().fill(RadialGradient(colors: [.red, .blue], center: .center, startRadius: 0, endRadius: 70))),
                                PictureOptions(scale: 1, now: fixedNow))
    let centre = rgb(radial, 79, 79), edge = rgb(radial, 79, 153)
    #expect(centre.r > 200 && centre.b < 80)
    #expect(edge.b > 200 && edge.r < 80)
    // Angular, a full turn clockwise from the trailing side: red just below the 3 o'clock
    // line, half-way (purple) at 9 o'clock, blue just above 3 o'clock.
    let angular = try pixelImage(tree(Rectangle().fill(AngularGradient(colors: [.red, .blue], center: .center))),
                                 PictureOptions(scale: 1, now: fixedNow))
    let start = rgb(angular, 150, 82), half = rgb(angular, 8, 79), end = rgb(angular, 150, 76)
    #expect(start.r > 200 && start.b < 80)
    #expect(end.b > 200 && end.r < 80)
    #expect(half.r > 90 && half.r < 180 && half.b > 90 && half.b < 180)
    // The tree carries the kind and geometry (WireJSONReaderTests round-trips them).
    let spec = AngularGradient(colors: [.red, .blue], center: .center, startAngle: .degrees(90), endAngle: .degrees(180))._styleSpec
    #expect(spec.gradientKind == "angular" && spec.gradientPoints == [0.5, 0.5, 90, 180])
    let r = RadialGradient(colors: [.red, .blue], center: .top, startRadius: 5, endRadius: 50)._styleSpec
    #expect(r.gradientKind == "radial" && r.gradientPoints == [0.5, 0, 5, 50])
}

@Test func contentIsLaidOutInsideTheRootsContentMargins() {
    // A colour fills what it is offered: the content rectangle.
    func frame(_ margins: EdgeInsetsSpec?, _ family: WidgetFamily) -> Rect {
        var node = tree(Color.red)
        var m = node.modifiers ?? Modifiers()
        m.contentMargins = margins
        node.modifiers = m
        return renderer().layout(node, family: family, now: fixedNow).frame
    }
    #expect(frame(WidgetFamily.systemSmall.defaultContentMargins, .systemSmall) == Rect(x: 16, y: 16, width: 126, height: 126))
    #expect(frame(EdgeInsetsSpec(top: 4, leading: 8, bottom: 12, trailing: 16), .systemMedium) == Rect(x: 8, y: 4, width: 314, height: 142))
    // .contentMarginsDisabled() (zero margins) and a tree without margins reach the edges.
    #expect(frame(EdgeInsetsSpec(top: 0, leading: 0, bottom: 0, trailing: 0), .systemSmall) == Rect(x: 0, y: 0, width: 158, height: 158))
    #expect(frame(nil, .systemSmall) == Rect(x: 0, y: 0, width: 158, height: 158))
    // Bad margins are clamped, never a crash.
    #expect(frame(EdgeInsetsSpec(top: .nan, leading: -5, bottom: .infinity, trailing: 1e9), .systemSmall) == Rect(x: 0, y: 0, width: 118, height: 158))
}

/// Issue 23: every computed length becomes an integer without a trap (`Int(saturating:)`),
/// whatever the tree holds — these numbers never pass the wire validation, but the drawing must
/// not depend on it (a local `preview`, a state file from an older host).
@Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -1e300, 0, -1])
func unvalidatedNumbersEverywhereStillDraw(_ v: Double) throws {
    let r = renderer()
    var text = ViewNode(kind: .text); text.text = "tracked"
    var m = Modifiers()
    m.font = FontSpec(style: "system", size: v); m.kerning = v; m.tracking = v; m.aspectRatio = v; m.minimumScaleFactor = v
    m.other = ["shadow": .object(["radius": .number(v), "x": .number(v), "y": .number(v)]), "blur": .number(v), "cornerRadius": .number(v)]
    var styles: [StyleSpec] = []
    for kind in [nil, "radial", "angular"] {
        var s = StyleSpec(name: "red"); s.gradient = [StyleSpec(name: "red"), StyleSpec(name: "blue")]
        s.gradientPoints = [v, v, v, v]; s.gradientKind = kind
        styles.append(s)
    }
    m.foreground = styles[0]; m.background = styles[1]
    text.modifiers = m
    var shape = ViewNode(kind: .shape); shape.shape = ShapeInfo(type: "roundedRectangle")
    shape.shape?.fill = styles[2]; shape.shape?.cornerRadius = v; shape.shape?.lineWidth = v
    var grid = ViewNode(kind: .lazyVGrid, children: (0..<6).map { _ in text })
    grid.gridItems = [GridItemSpec(size: "adaptive", minimum: v, spacing: v), GridItemSpec(size: "adaptive", minimum: 1, spacing: -1)]
    grid.spacing = v
    let root = ViewNode(kind: .vstack, children: [text, shape, grid])
    for family in [WidgetFamily.systemSmall, .accessoryCircular] {
        for format in PictureFormat.allCases {
            let p = try r.render(root, family: family, format: format, options: PictureOptions(scale: v, now: fixedNow))
            #expect(!p.bytes.isEmpty)
        }
    }
}

@Test func clippedCutsAnOverflowingChildAtTheFrame() throws {
    // At scale 1 in a 158 pt square: a 400 pt bar in a 60 pt frame centred at 79, clipped to 49…109.
    let bar = Color.red.frame(width: 400, height: 20).frame(width: 60, height: 20)
    let spilling = try pixelImage(tree(bar.containerBackground(.white, for: .widget)), PictureOptions(scale: 1, now: fixedNow))
    let clipped = try pixelImage(tree(bar.clipped().containerBackground(.white, for: .widget)), PictureOptions(scale: 1, now: fixedNow))
    #expect(rgb(spilling, 30, 79).g < 60, "the unclipped bar spills out of its frame")
    #expect(rgb(clipped, 30, 79) == (255, 255, 255))
    #expect(rgb(clipped, 79, 79).r > 200 && rgb(clipped, 79, 79).g < 60)
}

@Test func strikethroughAndUnderlineAreDrawnFromTheTextOrAViewAroundIt() throws {
    func picture<V: View>(_ v: V) throws -> PixelImage {
        try pixelImage(tree(v.font(.title).containerBackground(.white, for: .widget)), PictureOptions(scale: 1, now: fixedNow))
    }
    let plain = try picture(Text("Was 2500"))
    let struck = try picture(Text("Was 2500").strikethrough())
    let underlined = try picture(Text("Was 2500").underline())
    #expect(struck.differingPixels(from: plain, threshold: 32) > 40)
    #expect(underlined.differingPixels(from: plain, threshold: 32) > 40)
    #expect(underlined.differingPixels(from: struck, threshold: 32) > 40, "a line through is not a line under")
    // On a view, every text of it; the same picture as the text's own.
    #expect(try picture(HStack { Text("Was 2500") }.strikethrough()).differingPixels(from: struck, threshold: 0) == 0)
    #expect(try picture(HStack { Text("Was 2500").strikethrough(false) }.strikethrough()).differingPixels(from: plain, threshold: 0) == 0,
            "the text's own setting wins")
}
