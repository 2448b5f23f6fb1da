import FoundationEssentials
import Glibc
import OpenWidgetKit
import Testing
@testable import WidgetLayout

/// `.dateTime` fields are what a picture lays out, in the locale the picture is drawn in: a
/// calendar's "22" is two characters wide, not a whole date (issue 27).
@Test func dateTimeFieldsAreLaidOutInThePicturesLocale() {
    setenv("TZ", "UTC", 1); tzset()
    // Sunday 22 November 2026, 18:10 UTC.
    let at = Date(timeIntervalSince1970: 1_795_371_000)
    let view = VStack(alignment: .leading, spacing: 0) {
        Text(at, format: .dateTime.day())
        Text(at, format: .dateTime.weekday(.wide))
        Text(at, format: .dateTime.month(.abbreviated).day())
        Text(at, format: .dateTime.hour().minute())
    }.font(.system(size: 10))
    let expected: [(LocaleFormats, [String])] = [
        (.posix, ["22", "Sunday", "22 Nov", "18:10"]),
        (.enUS, ["22", "Sunday", "Nov 22", "6:10 PM"]),
        (.enGB, ["22", "Sunday", "22 Nov", "18:10"]),
        (.deDE, ["22", "Sonntag", "22. Nov.", "18:10"]),
        (.frFR, ["22", "dimanche", "22 nov.", "18:10"]),
        (.esES, ["22", "domingo", "22 nov", "18:10"]),
    ]
    for (locale, strings) in expected {
        let p = LayoutEngine(measurer: FixedAdvanceTextMeasurer(), now: fixedNow, locale: locale)
            .layout(tree(view), in: Rect(x: 0, y: 0, width: 200, height: 200))
        let t = texts(p)
        #expect(t.map { $0.text?.string ?? "" } == strings, "\(locale.identifier)")
        // 5 pt a character, 12 pt a line, leading-aligned in the column centred in 200 × 200.
        let widest = Double(strings.map(\.count).max() ?? 0) * 5
        #expect(t.map(\.frame) == strings.enumerated().map { i, s in
            Rect(x: (200 - widest) / 2, y: 76 + Double(i) * 12, width: Double(s.count) * 5, height: 12)
        }, "\(locale.identifier)")
    }
}
