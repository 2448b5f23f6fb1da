import Testing
import FoundationEssentials
import OpenWidgetKit
@testable import WidgetRendering

/// Golden renderings of the sample trees, inspected by eye before being written down.
private let opts = RenderOptions(now: Date(timeIntervalSince1970: 1_795_269_900))

private func render(_ n: ViewNode, _ f: WidgetFamily, _ o: RenderOptions = opts) -> String {
    TextRenderer.render(n, family: f, options: o)
}

/// Every line fits the grid and there are exactly `rows` of them.
private func checkGrid(_ s: String, _ f: WidgetFamily) {
    let lines = s.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.count == f.cellGrid.rows)
    for l in lines { #expect(displayWidth(of: l) <= f.cellGrid.columns); #expect(l.last != " ") }
}

@Test func habitSmallGolden() {
    let s = render(Samples.habitSmall, .systemSmall)
    checkGrid(s, .systemSmall)
    #expect(s == """

      ♨ Streak 12   ✔


      Morning run
      █████████░░░░░░
      3 of 5 this
      week

    """)
}

@Test func ringMediumGolden() {
    let s = render(Samples.ringMedium, .systemMedium)
    checkGrid(s, .systemMedium)
    #expect(s == """


       ▒▒▒▒████
      ▒▒ 62%  ██  ♥ Heart Points
      ▒  goal  █  31 of 50 pts
      ▒▒      ██  Updated 14:05
       ████████


    """)
}

@Test func weekLargeGolden() {
    let s = render(Samples.weekLarge, .systemLarge)
    checkGrid(s, .systemLarge)
    #expect(s == """

      ☺ Morning run                      4/7

      ████ ████ ▒▒▒▒ █████ █████ ▒▒▒▒▒ ▒▒▒▒▒
      ████ ████ ▒▒▒▒ █████ █████ ▒▒▒▒▒ ▒▒▒▒▒
       M    T    W     T     F     S     S

      ──────────────────────────────────────

      Best streak: 21 days. Keep the
      momentum going, one run at a time!









      [Log run]                [x] Reminders

    """)
}

@Test func statsGolden() {
    let s = render(Samples.stats, .systemSmall)
    checkGrid(s, .systemSmall)
    #expect(s == """


      ▣ CPU
      42%
      4 cores · 2.4
      GHz



    """)
}

@Test func accessoryGoldens() {
    #expect(render(Samples.circularGauge, .accessoryCircular) == "◑ 5\nRuns")
    // Four lines cut to three, each cut to the 20-column width.
    #expect(render(Samples.rectangular4, .accessoryRectangular) == """
    ♨ Morning run
    Streak: 12 days in…
    3 of 5 this week
    """)
    #expect(render(Samples.habitSmall, .accessoryRectangular) == """
    ♨ Streak 12 ✔
    Morning run
    ████████████░░░░░░░░
    """)
    #expect(render(Samples.inline, .accessoryInline) == "♨ 12 Morning run 62%")
    let inline = render(Samples.habitSmall, .accessoryInline)
    #expect(inline == "♨ Streak 12 ✔ Morning run 60…")
    #expect(!inline.contains("\n"))
    // A gauge without a value label shows its percentage.
    #expect(render(.gauge(0.25, in: [0, 1], style: "accessoryCircular"), .accessoryCircular) == "◔ 25%")
}

@Test func redactionKeepsShape() {
    let s = render(Samples.habitSmall.mod { $0.redacted = true }, .systemSmall)
    #expect(s == """

      ▒ ▒▒▒▒▒▒ ▒▒   ▒


      ▒▒▒▒▒▒▒ ▒▒▒
      █████████░░░░░░
      ▒ ▒▒ ▒ ▒▒▒▒
      ▒▒▒▒

    """)
    // The option forces it, or turns it off.
    #expect(render(Samples.inline, .accessoryInline, RenderOptions(redact: true, now: opts.now)) == "▒ ▒▒ ▒▒▒▒▒▒▒ ▒▒▒ ▒▒%")
    #expect(render(Samples.inline.mod { $0.redacted = true }, .accessoryInline, RenderOptions(redact: false, now: opts.now))
            == "♨ 12 Morning run 62%")
    // privacySensitive subtrees: redacted with the placeholder, or alone with the privacy option.
    let tree = ViewNode.hstack([.text("Balance"), .text("1234").mod { $0.privacySensitive = true }])
    #expect(render(tree, .accessoryInline) == "Balance 1234")
    #expect(render(tree, .accessoryInline, RenderOptions(redactPrivate: true, now: opts.now)) == "Balance ▒▒▒▒")
    #expect(render(tree.mod { $0.redacted = true }, .accessoryInline) == "▒▒▒▒▒▒▒ ▒▒▒▒")
}

@Test func alignmentAndSpacing() {
    // VStack trailing: the shorter line ends where the longer one does; centred in the widget.
    let v = render(.vstack("trailing", [.text("ab"), .text("abcd")]), .systemSmall)
    #expect(v.split(separator: "\n", omittingEmptySubsequences: false)[3...4] == ["         ab", "       abcd"])
    // HStack spacing 16 pt = 2 columns; nil = 1 column.
    let h = render(.hstack(spacing: 16, [.text("A"), .text("B")]), .systemSmall)
    #expect(h.split(separator: "\n", omittingEmptySubsequences: false)[4] == "       A  B")
    let h1 = render(.hstack([.text("A"), .text("B")]), .systemSmall)
    #expect(h1.split(separator: "\n", omittingEmptySubsequences: false)[4] == "        A B")
    // A flexible frame aligned bottomTrailing pushes its content into the corner.
    let corner = render(ViewNode.text("x").frame(maxWidth: .infinity, maxHeight: .infinity, alignment: "bottomTrailing"), .systemSmall)
    #expect(corner.split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init) == String(repeating: " ", count: 18) + "x")
    // Spacer between two texts: one at each edge.
    let sp = render(.hstack([.text("L"), .spacer, .text("R")]), .systemSmall)
    #expect(sp.split(separator: "\n", omittingEmptySubsequences: false)[4] == "L" + String(repeating: " ", count: 17) + "R")
    // lineLimit(1) truncates with an ellipsis; hidden views keep their place.
    let lim = render(.vstack("leading", [ViewNode.text("A long habit name here").mod { $0.lineLimit = 1 }, .text("B")]), .accessoryRectangular)
    #expect(lim == "A long habit name h…\nB")
    let hid = render(.hstack([ViewNode.text("AAA").mod { $0.hidden = true }, .text("B")]), .systemSmall)
    #expect(hid.split(separator: "\n", omittingEmptySubsequences: false)[4] == "           B")
}

@Test func controlsAndGlyphs() {
    #expect(render(.hstack([.button("Log"), .toggle("Done", isOn: false)]), .accessoryInline) == "[Log] [ ] Done")
    #expect(GlyphMap.unicode.glyph(for: "star.fill") == "★")
    #expect(GlyphMap.unicode.glyph(for: "plus.circle.fill") == "⊕")
    #expect(GlyphMap.unicode.glyph(for: "no.such.symbol") == "•")
    #expect(GlyphMap.nerdFont.glyph(for: "heart.fill") == "\u{F004}")
    for (_, g) in GlyphMap.plain { #expect(displayWidth(of: g) == 1, "\(g)") }
    #expect(displayWidth(of: "e\u{301}") == 1)
    #expect(displayWidth(of: "日本") == 4)
    #expect(displayWidth(of: "🔥") == 2)
    // The ASCII fast paths (issue 16) count as the per-Character rule does.
    #expect(displayWidth(of: "clock 12:00:00") == 14)
    #expect(displayWidth(of: "日本 ab") == 7)
    #expect(displayWidth(of: "a\r\nb\tc") == 3)
    #expect(displayWidth(of: "🔥 e\u{301}x") == 5)
    #expect(displayWidth(of: "a\u{200B}") == 1)
}

/// The byte-wise count (ASCII per byte, other stretches per cluster with the ASCII byte on each
/// side) agrees with the per-cluster rule on strings mixing every kind of cluster boundary:
/// combining and spacing marks after ASCII, a Prepend before a digit, ZWJ emoji, flags, keycaps,
/// CR LF, wide characters; whole strings and substrings. The mixes come from a fixed-seed
/// generator, so every run checks the same 2 000 strings.
@Test func displayWidthByBytesAgreesWithThePerClusterRule() {
    let pieces = ["a", "Z", " ", "1", "#", "e\u{301}", "\u{301}", "\u{903}", "\u{600}", "\u{200D}", "\u{FE0F}", "\u{20E3}",
                  "🔥", "👩\u{200D}💻", "🇫🇷", "\u{1F1E9}", "日", "ｱ", "\r", "\n", "\r\n", "\t", "◷", "é", "\u{7F}", "\u{0}",
                  "\u{E0041}", "Ā", "\u{2028}", "😀\u{1F3FD}"]
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((seed >> 33) % UInt64(bound))
    }
    func reference(_ s: some StringProtocol) -> Int { s.reduce(0) { $0 + displayWidth(of: $1) } }
    for _ in 0..<2_000 {
        let s = (0..<(1 + next(12))).map { _ in pieces[next(pieces.count)] }.joined()
        #expect(displayWidth(of: s) == reference(s), "\(s.unicodeScalars.map { String($0.value, radix: 16) })")
        let from = s.index(s.startIndex, offsetBy: next(max(1, s.count)), limitedBy: s.endIndex) ?? s.endIndex
        #expect(displayWidth(of: s[from...]) == reference(s[from...]))
    }
    // The cases the byte-wise count has to join across ASCII: a spacing mark after a letter is
    // one cluster of one column, not two; a Prepend before a digit is one cluster.
    #expect(displayWidth(of: "ka\u{903}") == 2)
    #expect(displayWidth(of: "\u{600}12") == reference("\u{600}12"))
}
