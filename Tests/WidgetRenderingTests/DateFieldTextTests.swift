import FoundationEssentials
import Glibc
import OpenWidgetKit
import Testing
@testable import WidgetRendering

/// `.dateTime` fields in the host's text outputs, in each locale of the table (issue 27): the
/// fields the SDK put in the live node, formatted at render time in the host's locale.
@Test func dateTimeFieldsFollowTheHostsLocaleInText() {
    setenv("TZ", "UTC", 1); tzset()
    // Sunday 22 November 2026, 18:10 UTC.
    let at = Date(timeIntervalSince1970: 1_795_371_000)
    let nodes = ["d", "EEEE", "yMMMMd", "jm", "EEEMMMdjm"].map { ViewNode.live(DateText(style: "date", date: at, fields: $0)) }
    let expected: [(LocaleFormats, [String])] = [
        (.posix, ["22", "Sunday", "22 November 2026", "18:10", "Sun 22 Nov 18:10"]),
        (.enUS, ["22", "Sunday", "November 22, 2026", "6:10 PM", "Sun, Nov 22, 6:10 PM"]),
        (.enGB, ["22", "Sunday", "22 November 2026", "18:10", "Sun, 22 Nov, 18:10"]),
        (.deDE, ["22", "Sonntag", "22. November 2026", "18:10", "So., 22. Nov., 18:10"]),
        (.frFR, ["22", "dimanche", "22 novembre 2026", "18:10", "dim. 22 nov. 18:10"]),
        (.esES, ["22", "domingo", "22 de noviembre de 2026", "18:10", "dom, 22 nov, 18:10"]),
    ]
    for (locale, strings) in expected {
        var o = RenderOptions(now: at)
        o.locale = locale
        #expect(nodes.map { TextRenderer.render($0, family: .accessoryInline, options: o) } == strings, "\(locale.identifier)")
    }
    // A node without fields (a plugin built before them) keeps its style's text.
    var o = RenderOptions(now: at)
    o.locale = .enUS
    #expect(TextRenderer.render(ViewNode.live(DateText(style: "date", date: at)), family: .accessoryInline, options: o) == "November 22, 2026")
}
