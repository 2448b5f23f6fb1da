import FoundationEssentials
import OpenWidgetKit
import Testing
@testable import WidgetGraphics
import WidgetLayout

// `PangoText` answers a text that differs from one it measured only in digits of the same
// advances (a ticking clock in tabular figures) from that one's kept measurements (issue 26):
// every answer must equal the one a fresh text engine gives, and the kept ones must be used.

/// The questions a layout asks of one text: unwrapped and at widths, one line or more, at
/// `minimumScaleFactor`'s sizes (the clock's largeTitle at 0.5…1).
private func questions(_ font: ResolvedFont) -> [(ResolvedFont, Double?, Int?)] {
    var out: [(ResolvedFont, Double?, Int?)] = []
    for factor in [1.0, 0.5, 0.75, 0.625, 0.6875, 0.71875, 0.734375, 0.7421875, 0.59] {
        let f = font.scaled(factor)
        out += [(f, nil, 1), (f, nil, nil), (f, 126, 1), (f, 60, 1), (f, 60, nil), (f, 40, 2)]
    }
    return out
}

private let times = ["10:42:17", "10:42:18", "11:11:11", "00:00:00", "88:88:88", "23:59:59", "07:01:40", "10:42:17"]

/// Each time asked every question by one engine, in turn, against a fresh engine per question.
private func expectSameAsFresh(_ font: ResolvedFont, _ strings: [String] = times) -> PangoText {
    _ = PinnedFonts.configured
    let kept = PangoText()
    for s in strings {
        for (f, w, lines) in questions(font) {
            let fresh = PangoText().measure(s, font: f, width: w, maxLines: lines)
            #expect(kept.measure(s, font: f, width: w, maxLines: lines) == fresh, "\(s) in \(f), width \(String(describing: w)), lines \(String(describing: lines))")
        }
    }
    return kept
}

@Test func aTabularClockIsMeasuredOnceASecondWithTheAnswersOfAFreshEngine() {
    let clock = ResolvedFont(size: 34, weight: 700, monospacedDigit: true)
    let kept = expectSameAsFresh(clock)
    // A new second: one layout of the new time (to compare its glyphs), every answer kept.
    let before = kept.layoutsMade
    for (f, w, lines) in questions(clock) { _ = kept.measure("10:42:19", font: f, width: w, maxLines: lines) }
    #expect(kept.layoutsMade - before == 1)
    // Inter Bold's tabular "4" is narrower than its other figures: a time with a "4" where the
    // ones seen have none is measured for itself, and is a twin from then on.
    let other = kept.layoutsMade
    for (f, w, lines) in questions(clock) { _ = kept.measure("12:34:56", font: f, width: w, maxLines: lines) }
    #expect(kept.layoutsMade - other > 1)
    let again = kept.layoutsMade
    for (f, w, lines) in questions(clock) { _ = kept.measure("12:34:57", font: f, width: w, maxLines: lines) }
    #expect(kept.layoutsMade - again == 1)
}

@Test func proportionalDigitsAreNotTwins() {
    // Inter's own figures differ in width ("1" is narrow): each time is measured for itself.
    let kept = expectSameAsFresh(ResolvedFont(size: 34, weight: 700))
    let before = kept.layoutsMade
    _ = kept.measure("11:11:11", font: ResolvedFont(size: 17, weight: 700), width: 60, maxLines: 1)
    _ = kept.measure("12:34:56", font: ResolvedFont(size: 34, weight: 700), width: 60, maxLines: 1)
    #expect(kept.layoutsMade - before >= 2)
}

@Test func twinsHoldInEveryFaceAndAcrossTheDisplayCut() {
    // Tabular and not, rounded, monospaced, serif, tracking, and sizes on both sides of 20 pt
    // (Inter below, Inter Display from there) with words beside the digits.
    let words = ["Steps 10432 today", "Steps 10433 today", "Steps 11111 today", "Steps 98765 today"]
    for font in [ResolvedFont(size: 24), ResolvedFont(size: 24, monospacedDigit: true), ResolvedFont(size: 22, design: .rounded, monospacedDigit: true),
                 ResolvedFont(size: 30, design: .monospaced), ResolvedFont(size: 17, design: .serif), ResolvedFont(size: 28, monospacedDigit: true, tracking: 2),
                 ResolvedFont(size: 12, monospacedDigit: true)] {
        _ = expectSameAsFresh(font, times + words)
    }
}

@Test func twinsSurviveEmptiedCaches() {
    _ = PinnedFonts.configured
    let kept = PangoText()
    let clock = ResolvedFont(size: 34, weight: 700, monospacedDigit: true)
    for i in 0..<(PangoText.twinLimit + 40) {
        let s = "10:\(10 + i / 60 % 50):\(10 + i % 50)"
        let f = clock.scaled(0.5 + Double(i % 7) / 14)
        #expect(kept.measure(s, font: f, width: 126, maxLines: 1) == PangoText().measure(s, font: f, width: 126, maxLines: 1))
        if i % 97 == 0 { kept.clearCache() }
    }
}

/// The system clock's small widget at `time`: a largeTitle in tabular figures shrunk to fit
/// (`minimumScaleFactor`), between a label and a date.
private func clock(_ time: String, cut: Bool = false) -> ViewNode {
    ViewEvaluator.evaluate(VStack(alignment: .leading, spacing: 4) {
        Label("Clock", systemImage: "clock").font(.caption).foregroundStyle(.secondary)
        Spacer()
        Text(time).font(.largeTitle.bold()).monospacedDigit().lineLimit(1).minimumScaleFactor(cut ? 0.9 : 0.5)
        Text("Friday 27 November").font(.caption).foregroundStyle(.secondary)
    }.frame(maxWidth: .infinity, alignment: .leading), environment: EnvironmentValues())
}

@Test func aTwinIsDrawnInItsTwinsLayoutWithThePixelsOfAFreshDrawing() throws {
    _ = PinnedFonts.configured
    let kept = PictureRenderer()
    let now = Date(timeIntervalSince1970: 1_773_569_400)
    // Shrunk to fit, and cut with "…" (a factor too large to fit: the ellipsis run keeps its glyph).
    for cut in [false, true] {
        for scale in [1.0, 2.0] {
            let options = PictureOptions(scale: scale, appearance: .dark, now: now)
            for time in ["10:42:17", "10:42:18", "10:42:19", "10:42:40", "10:42:41", "10:43:00", "10:42:17"] {
                let made = kept.text.drawLayoutsMade
                let a = try kept.render(clock(time, cut: cut), family: .systemSmall, format: .png, options: options)
                let b = try PictureRenderer().render(clock(time, cut: cut), family: .systemSmall, format: .png, options: options)
                #expect(a.bytes == b.bytes, "\(time) at scale \(scale), cut \(cut)")
                // The next second of a time seen (and the label and date, unchanged) is drawn
                // in kept layouts: no layout made, nothing shaped.
                if ["10:42:18", "10:42:19", "10:42:41"].contains(time) { #expect(kept.text.drawLayoutsMade == made, "\(time)") }
            }
        }
    }
}
