import Testing
@testable import WidgetGraphics
import WidgetLayout

// The faces standing in for SF Pro and SF Pro Rounded (issue 28, item 8), on exact widths:
// each number is the text's advance in the named face of the pinned font set with SF Pro's
// tracking for the size (Pango's own answer, rounded up to whole points as the layout does).

private func width(_ s: String, _ font: ResolvedFont) -> Double {
    _ = PinnedFonts.configured
    return PangoText().measure(s, font: font, width: nil, maxLines: nil).width
}

@Test func fromTwentyPointsTextIsSetInInterDisplayAsSFSwitchesToItsDisplayCut() {
    // "Steps today": 19 pt Inter (tracking −0.46 pt) 103.4 → 104; 20 pt Inter Display 98.4 → 99
    // (Inter would take 109: 10 % wider); 34 pt (largeTitle, +0.41 pt) 177.1 → 178 (Inter 198),
    // "10,432" 99.04 → 100.
    #expect(width("Steps today", ResolvedFont(size: 19)) == 104)
    #expect(width("Steps today", ResolvedFont(size: 20)) == 99)
    #expect(width("Steps today", ResolvedFont(size: 34)) == 178)
    #expect(width("10,432", ResolvedFont(size: 34)) == 100)
    #expect(FontCatalog.family(for: .default, size: 19.9) == FontCatalog.sans)
    #expect(FontCatalog.family(for: .default, size: 20) == FontCatalog.sansDisplay)
    // Tabular figures stay in Inter (Debian's Inter Display has no working `tnum`): every digit
    // of a 34 pt clock takes the same 0.648 em (22.03 pt), so a ticking time does not move.
    let tabular = ResolvedFont(size: 34, monospacedDigit: true)
    #expect(width("10:08", tabular) == width("10:11", tabular))
    #expect(FontCatalog.family(for: .default, size: 34, tabularDigits: true) == FontCatalog.sans)
}

@Test func roundedTextIsSetInQuicksand() {
    // 17 pt with body's tracking (−0.44 pt): Quicksand's figures take 44.8 → 45 where Inter's
    // take 52.8 → 53; its words 89.6 → 90 (Inter 92).
    #expect(width("10,432", ResolvedFont(size: 17, design: .rounded)) == 45)
    #expect(width("10,432", ResolvedFont(size: 17)) == 53)
    #expect(width("Steps today", ResolvedFont(size: 17, design: .rounded)) == 90)
    #expect(FontCatalog.family(for: .rounded, size: 40).hasPrefix("Quicksand,"))
}
